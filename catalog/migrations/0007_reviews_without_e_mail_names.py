from django.db import migrations
from django.db.models import F, Q


def forget_e_mail_names(apps, schema_editor):
    """Reviews whose name fell back to the customer's username (their e-mail address) show "A customer"."""
    Review = apps.get_model("catalog", "Review")
    Review.objects.filter(Q(user_name=F("user_email")) | Q(user__username=F("user_name"))).update(user_name="")


class Migration(migrations.Migration):
    dependencies = [("catalog", "0006_product_index_for_the_newest_first_list")]

    operations = [migrations.RunPython(forget_e_mail_names, migrations.RunPython.noop)]
