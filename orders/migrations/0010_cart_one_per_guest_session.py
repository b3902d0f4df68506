# The constraint is a migration of its own: on PostgreSQL an index cannot be made in the transaction
# whose merge (0009) left foreign-key checks pending.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('orders', '0009_merge_guest_carts_of_one_session'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='cart',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', True)), fields=('session_key',), name='cart_one_per_guest_session'),
        ),
    ]
