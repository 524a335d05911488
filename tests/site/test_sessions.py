"""The site's sessions (config/sessions.py): Django's database sessions, read by one SELECT;
what a visitor keeps reads back, and nothing else does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from config.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_it_reads_back_what_a_session_keeps():
    session = SessionStore()
    session["forcebuilder_anonymous_owner"] = "a-token"
    session.save()
    again = SessionStore(session.session_key)
    assert again["forcebuilder_anonymous_owner"] == "a-token"
    assert again.session_key == session.session_key


def test_an_expired_session_reads_as_none_and_its_key_is_forgotten():
    session = SessionStore()
    session["forcebuilder_anonymous_owner"] = "a-token"
    session.save()
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    again = SessionStore(session.session_key)
    assert again.get("forcebuilder_anonymous_owner") is None
    assert again.session_key is None


def test_a_key_no_session_has_reads_as_none():
    unknown = SessionStore("k" * 32)
    assert unknown.load() == {}
    assert unknown.session_key is None


def test_tampered_session_data_is_refused():
    session = SessionStore()
    session.save()
    forged = SessionStore().encode({"_auth_user_id": "1"}).replace(":", ";", 1)
    Session.objects.filter(session_key=session.session_key).update(session_data=forged)
    assert SessionStore(session.session_key).load() == {}


def test_logging_out_ends_the_session_on_the_server():
    user = get_user_model().objects.create_user("reader", password="a long pass phrase 17")
    client = Client()
    client.force_login(user)
    key = client.cookies["sessionid"].value
    assert SessionStore(key).get("_auth_user_id") == str(user.pk)
    client.post("/accounts/logout/")
    # The old cookie, sent again, names no session.
    assert SessionStore(key).get("_auth_user_id") is None
