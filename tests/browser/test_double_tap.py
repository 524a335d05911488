"""A form sent twice from a phone makes one record (onefinity.once): both POSTs lead to the
one list the first made. The back button shows the form again as a page of its own: its
token is new, so creating again from it makes another list."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from forcebuilder.models import Force
from tests.browser.conftest import PHONE, patient

pytestmark = pytest.mark.django_db(transaction=True)

EDITOR = re.compile(r"/forces/\d+/$")


def signed_in_phone(browser: Browser, base: str, user) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=PHONE)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return patient(context.new_page())


# The page's form sent twice, as a phone resending it does (its answer lost on bad Wi-Fi):
# the same POST again, its CSRF token and one-time token among its fields, and where each
# answer led. (One after the other: the live server's threads share the test database's one
# connection, so two requests at once are tests/site/test_made_once.py's, in threads with
# connections of their own.)
SEND_TWICE = """async () => {
  const form = document.querySelector('form[action="/forces/new/"]');
  const send = () => fetch(form.action, { method: "POST", body: new FormData(form) });
  const first = await send();
  const second = await send();
  return [first, second].map((answer) => new URL(answer.url).pathname);
}"""


def test_the_form_sent_again_makes_one_list(browser: Browser, live_server, owner):
    phone = signed_in_phone(browser, live_server.url, owner)
    phone.goto(f"{live_server.url}/forces/new/")
    phone.get_by_label("Name").fill("Raid")
    first, second = phone.evaluate(SEND_TWICE)
    (force,) = Force.objects.filter(owner=owner)
    assert first == second == force.get_absolute_url()
    phone.goto(f"{live_server.url}{first}")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Raid")
    phone.context.close()


def test_the_form_shown_again_by_the_back_button_makes_another_list(
    browser: Browser, live_server, owner
):
    phone = signed_in_phone(browser, live_server.url, owner)
    phone.goto(f"{live_server.url}/forces/new/")
    token = phone.locator('input[name="once"]')
    first = token.input_value()
    phone.get_by_role("button", name="Create and start building").click()
    expect(phone).to_have_url(EDITOR)
    phone.go_back()
    expect(phone).to_have_url(re.compile(r"/forces/new/$"))
    expect(token).not_to_have_value(first)
    phone.get_by_role("button", name="Create and start building").click()
    expect(phone).to_have_url(EDITOR)
    assert Force.objects.filter(owner=owner).count() == 2
    phone.context.close()
