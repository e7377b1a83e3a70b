from django.contrib import admin

from games.models import Deal, Seat, Table, TableEvent, TableTemplate


@admin.register(TableTemplate)
class TableTemplateAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "currency", "seats", "entry_fee", "point_value", "active"]
    list_filter = ["variant", "currency", "active"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "template", "status", "version", "deadline", "created_at"]
    list_filter = ["status"]
    exclude = ["state"]


admin.site.register(Seat)
admin.site.register(Deal)
admin.site.register(TableEvent)
