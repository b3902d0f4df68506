"""The published OpenAPI schema is valid, and every component name belongs to one shape."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_it_generates_the_schema_without_a_single_warning(tmp_path):
    # given: drf-spectacular warns when two serializers share a component name
    # (then GET /api/products was validated against the dashboard's product shape)
    # when / then: --fail-on-warn turns any warning into an error
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))


@pytest.mark.django_db
def test_it_names_the_public_and_the_staff_product_apart(client):
    schema = client.get("/api/schema/?format=json").json()
    public = schema["paths"]["/api/products"]["get"]["responses"]["200"]["content"]["application/json"]
    staff = schema["paths"]["/api/admin/products"]["get"]["responses"]["200"]["content"]["application/json"]
    # the staff list is paged: its rows are the page's results
    page = schema["components"]["schemas"][staff["schema"]["$ref"].rsplit("/", 1)[1]]
    assert public["schema"]["items"]["$ref"] != page["properties"]["results"]["items"]["$ref"]


@pytest.mark.django_db
def test_it_documents_the_error_shape_on_every_operation(client):
    schema = client.get("/api/schema/?format=json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            assert "400" in operation["responses"], (method, path)


@pytest.mark.django_db
def test_it_answers_an_unknown_api_url_with_json(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404
    assert response.json()["message"]
