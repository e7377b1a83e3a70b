from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "email", "is_staff", "is_bot", "date_joined")
    list_filter = ("is_staff", "is_bot", "is_active")
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Player", {"fields": ("display_name", "adult_confirmed_at", "is_bot")}),
    )
