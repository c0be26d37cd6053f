# Undo and redo logged as entries of their own (issue 20); players and groups sorted ignoring case.

import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0010_table_passes'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='group',
            options={'ordering': [django.db.models.functions.text.Lower('name'), 'id'], 'verbose_name': 'group', 'verbose_name_plural': 'groups'},
        ),
        migrations.AlterModelOptions(
            name='player',
            options={'ordering': [django.db.models.functions.text.Lower('name'), 'id'], 'verbose_name': 'player', 'verbose_name_plural': 'players'},
        ),
        migrations.AlterField(
            model_name='matchchange',
            name='kind',
            field=models.CharField(choices=[('record', 'recorded'), ('edit', 'edited'), ('delete', 'deleted'), ('finish', 'finished'), ('reopen', 'reopened'), ('abandon', 'abandoned'), ('undo', 'undone'), ('redo', 'redone')], max_length=20),
        ),
    ]
