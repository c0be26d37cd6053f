import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_five_games(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    for title in ["3 sind einer zuviel!", "X nimmt!", "Freaky", "11 nimmt!", "13"]:
        assert title in body
