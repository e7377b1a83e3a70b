"""A tournament's cancel-or-void request is a kind of the one four-eyes request: its asker may
withdraw it, or a second member decline it (who, when, how, why); only a request neither
confirmed nor closed waits. The field of what is asked is ``step`` (its column stays ``what``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_tournaments_rounds_registrations"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="staffrequest", old_name="what", new_name="step"),
                migrations.AlterField(
                    model_name="staffrequest",
                    name="step",
                    field=models.CharField(
                        choices=[("cancel", "Cancel before the start"), ("void", "Void while running")],
                        db_column="what",
                        max_length=8,
                    ),
                ),
            ],
        ),
        migrations.AlterField(
            model_name="staffrequest",
            name="reason",
            field=models.TextField(help_text="Why, as the players will read it."),
        ),
        migrations.AddField(
            model_name="staffrequest",
            name="closed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="staffrequest",
            name="closed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="staffrequest",
            name="outcome",
            field=models.CharField(
                blank=True,
                choices=[("withdrawn", "Withdrawn"), ("declined", "Declined")],
                help_text="Withdrawn by its asker, or declined.",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="staffrequest",
            name="close_reason",
            field=models.TextField(blank=True, help_text="Why it was withdrawn or declined."),
        ),
        migrations.RemoveConstraint(model_name="staffrequest", name="one_open_request_per_tournament"),
        migrations.AddConstraint(
            model_name="staffrequest",
            constraint=models.UniqueConstraint(
                condition=models.Q(("closed_at__isnull", True), ("confirmed_at__isnull", True)),
                fields=("tournament",),
                name="one_open_request_per_tournament",
            ),
        ),
    ]
