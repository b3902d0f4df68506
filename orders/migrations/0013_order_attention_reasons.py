"""An order keeps every reason it is flagged for that is still open (`attention_reasons`), not only the
latest (`attention_reason`): a later flag replaced an earlier one, so a check staff still had to make was lost."""

from django.db import migrations, models

# a flag from before reasons were named: money captured on a cancelled order, the only flag there was
UNNAMED = "paid_after_cancel"


def reasons_from_reason(apps, schema_editor):
    Order = apps.get_model("orders", "Order")
    for pk, reason in Order.objects.filter(needs_attention=True).values_list("pk", "attention_reason").iterator():
        Order.objects.filter(pk=pk).update(attention_reasons=[reason or UNNAMED])


def reason_from_reasons(apps, schema_editor):
    Order = apps.get_model("orders", "Order")
    for pk, reasons in Order.objects.filter(needs_attention=True).values_list("pk", "attention_reasons").iterator():
        Order.objects.filter(pk=pk).update(attention_reason=reasons[-1] if reasons else "")


class Migration(migrations.Migration):

    dependencies = [
        ("orders", "0012_cart_line_position"),
    ]

    operations = [
        migrations.AddField(
            model_name="order",
            name="attention_reasons",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(reasons_from_reason, reason_from_reasons),
        migrations.RemoveField(
            model_name="order",
            name="attention_reason",
        ),
    ]
