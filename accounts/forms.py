from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils import timezone

from accounts import addresses, regions
from accounts.models import User
from accounts.usernames import normalise, skeleton

ADULT_AGE = 18

# Django's forms are generic only to the type checker (django-stubs); at run time they are not.
if TYPE_CHECKING:
    _UserCreationForm = UserCreationForm[User]
    _UserModelForm = forms.ModelForm[User]
else:
    _UserCreationForm = UserCreationForm
    _UserModelForm = forms.ModelForm


def age_on(born: dt.date, today: dt.date) -> int:
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


class SignUpForm(_UserCreationForm):
    display_name = forms.CharField(
        max_length=40,
        required=False,
        help_text="Optional: the name we greet you by. At the tables other players see your username.",
    )
    date_of_birth = forms.DateField(
        label="Date of birth",
        help_text="You must be 18 or older to play.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    # A select of India's regions on the page; any ISO 3166-2 code through the API.
    region = forms.CharField(
        label="Where you live",
        max_length=6,
        widget=forms.Select(),
        help_text="Money play is open in some regions only; practice play is open everywhere.",
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email", "date_of_birth", "region")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["region"].widget.choices = [("", "Choose your state or territory"), *regions.choices()]
        self.fields["email"].label = "E-mail address"
        self.fields["email"].help_text = EMAIL_HELP

    def clean_region(self) -> str:
        return clean_region(self.cleaned_data["region"])

    def clean_email(self) -> str:
        return clean_email(self.cleaned_data.get("email", ""), self.instance)

    def validate_password_for_user(self, user: Any, **kwargs: Any) -> None:
        """Django's check of the password against the validators, but with a weak password's
        reasons under the password itself: Django puts them under its confirmation, and only
        when the two match."""
        password = self.cleaned_data.get("password1")
        if password:
            try:
                password_validation.validate_password(password, user)
            except ValidationError as error:
                self.add_error("password1", error)

    def clean_username(self) -> str:
        """Stored NFKC-normalised and case-folded; refused when taken or a look-alike of a
        name already taken (a Cyrillic "а" for a Latin "a")."""
        username = normalise(self.cleaned_data["username"])
        if User.objects.filter(username=username).exists():
            raise forms.ValidationError("That username is taken. Please choose another.")
        if User.objects.filter(username_skeleton=skeleton(username)).exists():
            raise forms.ValidationError(
                "That username looks too much like another player's. Please choose another."
            )
        return username

    def clean_date_of_birth(self) -> dt.date:
        born: dt.date = self.cleaned_data["date_of_birth"]
        today = timezone.localdate()
        if born > today or born.year < today.year - 120:
            raise forms.ValidationError("Enter your real date of birth.")
        if age_on(born, today) < ADULT_AGE:
            raise forms.ValidationError("You must be 18 or older to play on this site.")
        return born


EMAIL_HELP = (
    "Optional, but without a confirmed address nobody can let you back in if you forget your "
    "password: we mail you a link to confirm it."
)


def clean_email(value: str, user: User) -> str:
    address = addresses.normalise(value)
    if addresses.confirmed_elsewhere(address, user):
        raise forms.ValidationError(addresses.TAKEN)
    return address


def clean_region(value: str) -> str:
    code = regions.normalise(value or "")
    if not regions.is_region(code):
        raise forms.ValidationError(
            'Choose where you live: an ISO 3166-2 region code such as "IN-KA" (Karnataka).'
        )
    return code


class ProfileForm(_UserModelForm):
    """The player's name, e-mail address and region. A new address needs the player's password
    (a borrowed session must not take the account's way back in) and is not confirmed until
    its link is followed. The region is not saved here: :attr:`region_asked` is the region the
    player asks for, which player protection decides (``accounts.signals``)."""

    region = forms.CharField(
        label="Where you live",
        max_length=6,
        widget=forms.Select(),
        help_text="A move to a region where money play is closed closes it for you at once. A move "
        "to one where it is open opens it after the same wait as a raised limit; once your "
        "identity is verified, our staff check the move first.",
    )
    password = forms.CharField(
        label="Your password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Needed only to change your e-mail address.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stored_email = self.instance.email
        self.fields["region"].initial = self.instance.region
        options = regions.choices()
        if self.instance.region not in dict(options):
            options = [(self.instance.region, regions.name_of(self.instance.region)), *options]
        self.fields["region"].widget.choices = options
        self.fields["email"].label = "E-mail address"
        self.fields["email"].help_text = "A new address is confirmed by a link we mail to it."

    @property
    def email_changed(self) -> bool:
        return bool(self.is_bound and self.cleaned_data.get("email", self.stored_email) != self.stored_email)

    @property
    def region_asked(self) -> str | None:
        """The region the player asks to move to, or None when unchanged."""
        region = str(self.cleaned_data.get("region", ""))
        return None if region == self.instance.region else region

    def clean_region(self) -> str:
        if self.cleaned_data["region"] == self.instance.region:
            return str(self.instance.region)  # unchanged, even if not declared yet
        return clean_region(self.cleaned_data["region"])

    def clean_email(self) -> str:
        return clean_email(self.cleaned_data.get("email", ""), self.instance)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.email_changed and not self.instance.check_password(cleaned.get("password") or ""):
            self.add_error("password", "Enter your password to change your e-mail address.")
        return cleaned
