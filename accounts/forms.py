from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        max_length=40, required=False, help_text="Optional: the name other players see."
    )
    confirm_adult = forms.BooleanField(
        label="I am 18 years of age or older",
        error_messages={"required": "You must be 18 or older to play on this site."},
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name")

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That username is taken. Please choose another.")
        return username


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email")
