"""The match header's summary of its options, said from each game's schema."""

from django.utils import translation

from games.presenters import option_summary


def test_a_choice_is_said_by_its_label_not_its_stored_value():
    words = option_summary("cribist", {"ending": "target", "target": 91})
    assert "The match ends: at a target score" in words and "to 91" in words
    assert not any(word == "target" or "ends by" in word for word in words)


def test_one_deal_is_singular_in_both_languages():
    words = option_summary("cribist", {"ending": "deals", "deals": 1})
    assert "1 deal" in words and "The match ends: after a number of deals" in words
    with translation.override("es"):
        words = option_summary("cribist", {"ending": "deals", "deals": 1})
    assert "1 mano" in words
    assert option_summary("cribist", {"ending": "deals", "deals": 4}).count("4 deals") == 1
