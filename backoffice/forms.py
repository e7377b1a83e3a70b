"""Forms of the back office: the report range, and the reason every staff action needs."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.text import visible
from backoffice.reports import MAX_DAYS, default_range
from wallet.models import Currency


class RangeForm(forms.Form):
    start = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    currency = forms.ChoiceField(choices=Currency.choices, initial=Currency.INR)

    def __init__(self, data: Any = None, **kwargs: Any) -> None:
        start, end = default_range()
        defaults = {"start": start, "end": end, "currency": Currency.INR}
        if data is not None:
            data = {**defaults, **{key: value for key, value in data.items() if value}}
        else:
            data = defaults
        super().__init__(data, **kwargs)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if start > end:
                raise forms.ValidationError("The start date must not be after the end date.")
            if (end - start).days >= MAX_DAYS:
                raise forms.ValidationError(f"Choose at most {MAX_DAYS} days.")
        return cleaned


class ReasonForm(forms.Form):
    """The reason for a staff action, asked on the admin's confirmation page."""

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=500,
        help_text="Required: it goes into the audit log.",
    )

    def clean_reason(self) -> str:
        reason = visible(self.cleaned_data["reason"])
        if not reason:
            raise forms.ValidationError("Say why: a reason needs visible words.")
        return reason
