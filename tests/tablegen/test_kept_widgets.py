"""The generate, pack and empty-board forms draw their widgets through KeptWidgets: each
widget's HTML kept per process by the context it is drawn from. What they draw is exactly
what Django's own renderer draws, for every value, error and choice; a widget of another
value is drawn anew; what is kept is bounded."""

from __future__ import annotations

import pytest
from django.forms.renderers import get_default_renderer
from django.http import QueryDict
from django.utils.functional import lazy

from onefinity.rules.bounded_cache import Recent
from tablegen import forms as table_forms
from tablegen.forms import EmptyBoardForm, GenerateForm, KeptWidgets, PackForm

BOXES = [
    ("building-4:2,crates:6", 'Club\'s <b>box</b> & "crates"'),
    ("hill-4:2", "Hills 'n' more"),
]


def query(text: str) -> QueryDict:
    return QueryDict(text)


FORMS = [
    lambda: GenerateForm(),
    lambda: GenerateForm(boxes=BOXES),
    lambda: GenerateForm(query("seed=12345&coverage=0.45&symmetry=point&mix=balanced")),
    lambda: GenerateForm(query("seed=7&pin=on&coverage=0.5&symmetry=mirror&mix=urban")),
    lambda: GenerateForm(query("seed=-3&coverage=abc&symmetry=sideways&mix=none&box=x:1")),
    lambda: GenerateForm(
        query("seed=1&coverage=0.45&symmetry=none&mix=balanced&box=hill-4:2"), boxes=BOXES
    ),
    lambda: GenerateForm(query("seed=1&coverage=0.45&symmetry=point&mix=balanced&box=wall-3:4")),
    lambda: PackForm(),
    lambda: PackForm(query("count=99&name=&coverage=0.45&symmetry=point&mix=balanced")),
    lambda: EmptyBoardForm(),
    lambda: EmptyBoardForm(query("name=<script>&rows=1&columns=zz")),
]


def drawn(form, renderer=None) -> list[str]:
    if renderer is not None:
        form.renderer = renderer
    form.is_bound and form.is_valid()
    return [str(form[name]) for name in form.fields]


@pytest.mark.parametrize("make", FORMS)
def test_the_forms_draw_what_djangos_renderer_draws(make):
    djangos = drawn(make(), get_default_renderer())
    assert isinstance(make().renderer, KeptWidgets)
    assert drawn(make()) == djangos  # drawn, and kept
    assert drawn(make()) == djangos  # from what was kept


def test_a_widget_of_another_value_is_drawn_anew():
    for seed in (1, 2, 12, 123):
        form = GenerateForm(query(f"seed={seed}&coverage=0.45&symmetry=point&mix=balanced"))
        assert f'value="{seed}"' in str(form["seed"])
    chosen = GenerateForm(query("seed=1&coverage=0.45&symmetry=mirror&mix=balanced"))
    assert '<option value="mirror" selected>' in str(chosen["symmetry"])


def test_a_context_that_is_not_plain_data_is_drawn_and_not_kept(monkeypatch):
    kept = Recent(10_000, lambda html: 2 * len(html))
    monkeypatch.setattr(table_forms, "_WIDGETS", kept)
    form = GenerateForm()
    form.fields["seed"].widget.attrs["placeholder"] = lazy(lambda: "any number", str)()
    assert 'placeholder="any number"' in str(form["seed"])
    assert len(kept) == 0
    str(form["mix"])
    assert len(kept) == 1


def test_every_seed_is_drawn_from_one_widget_kept(monkeypatch):
    # A number typed is kept as a stand-in and put back: the seed, new on every table made,
    # keeps one widget, and each draws what Django draws with it.
    kept = Recent(100_000, lambda html: 2 * len(html))
    monkeypatch.setattr(table_forms, "_WIDGETS", kept)
    for seed in ("0", "7", "123456", "4611686018427387904", "-3", "12.5", "1e3", "0x1F", " 4"):
        data = query(f"seed={seed}&coverage=0.45&symmetry=point&mix=balanced".replace(" ", "+"))
        ours, djangos = GenerateForm(data), GenerateForm(data, renderer=get_default_renderer())
        assert str(ours["seed"]) == str(djangos["seed"])
        assert str(ours["coverage"]) == str(djangos["coverage"])
    seeds = [key for key, _ in kept.items() if "seed" in repr(key)]
    # One for the valid numbers and one for the refused ("-3", "12.5": marked invalid); one
    # each for what is not a number ("1e3", "0x1F", " 4").
    assert len(seeds) == 5


def test_the_widgets_kept_are_bounded(monkeypatch):
    kept = Recent(4_000, lambda html: 2 * len(html))
    monkeypatch.setattr(table_forms, "_WIDGETS", kept)
    for number in range(100):
        drawn(EmptyBoardForm(query(f"name=Board+{number}&rows=11&columns=9")))
    weights = [2 * len(html) for _, html in kept.items()]
    assert 0 < sum(weights) <= 4_000 and len(kept) < 30
    # The last name's widget is among those kept.
    assert any('value="Board 99"' in html for _, html in kept.items())
