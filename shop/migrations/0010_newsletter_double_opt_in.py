from django.db import migrations, models


def confirm_earlier_subscribers(apps, schema_editor):
    """Addresses subscribed before double opt-in stay on the list: they were told they were subscribed."""
    subscriber = apps.get_model("shop", "NewsletterSubscriber")
    subscriber.objects.filter(confirmed_at__isnull=True).update(confirmed_at=models.F("created_at"))


def unlist_unconfirmed_subscribers(apps, schema_editor):
    """Going back to a release that mails every active address: one awaiting its confirmation (anyone may have
    typed it in) is taken off the list rather than mailed without its owner's consent."""
    subscriber = apps.get_model("shop", "NewsletterSubscriber")
    subscriber.objects.filter(is_active=True, confirmed_at__isnull=True).update(is_active=False)


class Migration(migrations.Migration):

    dependencies = [
        ("shop", "0009_exchange_rate_refused"),
    ]

    operations = [
        migrations.AddField(
            model_name="newslettersubscriber",
            name="confirmed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(confirm_earlier_subscribers, unlist_unconfirmed_subscribers),
    ]
