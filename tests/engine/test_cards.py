"""Cards: notation, values, the deck and the seeded shuffle."""

from __future__ import annotations

import pytest

from games.engine.pieces.cards import (
    FULL_DECK,
    Card,
    CardError,
    format_cards,
    parse_card,
    parse_cards,
    shuffled_deck,
)


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("5H", Card(5, "H")),
        ("AS", Card(1, "S")),
        ("TD", Card(10, "D")),
        ("10D", Card(10, "D")),
        ("js", Card(11, "S")),
        (" qc ", Card(12, "C")),
        ("KH", Card(13, "H")),
    ],
)
def test_parse_card_reads_rank_then_suit(token: str, card: Card) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["1D", "5X", "11H", "H5", "", "5HH", "ZZ"])
def test_bad_notation_is_refused_naming_the_token(token: str) -> None:
    with pytest.raises(CardError, match=f"'{token}' is not a card"):
        parse_card(token)


def test_a_card_must_be_text() -> None:
    with pytest.raises(CardError):
        parse_card(5)  # type: ignore[arg-type]


@pytest.mark.parametrize("token", [None, 5.0, ["5H"], {"5H": 1}, ("5", "H"), b"5H"])
def test_anything_but_text_is_refused_as_a_card_even_among_others(token) -> None:
    with pytest.raises(CardError):
        parse_card(token)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        parse_cards(["5H", token, "6C"])  # type: ignore[list-item]


def test_every_card_reads_back_from_its_own_notation_as_itself() -> None:
    assert tuple(parse_card(str(card)) for card in FULL_DECK) == FULL_DECK
    assert parse_cards([str(card) for card in FULL_DECK]) == FULL_DECK
    assert parse_cards(" ".join(str(card).lower() for card in FULL_DECK)) == FULL_DECK


def test_card_errors_are_value_errors() -> None:
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize(
    ("token", "value"),
    [("AH", 1), ("2C", 2), ("9S", 9), ("TD", 10), ("JH", 10), ("QC", 10), ("KS", 10)],
)
def test_counting_values(token: str, value: int) -> None:
    assert parse_card(token).value == value


def test_a_card_writes_and_names_itself() -> None:
    card = parse_card("10h")
    assert str(card) == "TH"
    assert repr(card) == "Card(TH)"
    assert card.name == "ten of hearts"
    assert parse_card("AS").name == "ace of spades"


def test_parse_cards_takes_spaces_commas_or_tokens() -> None:
    expected = (Card(5, "H"), Card(11, "D"), Card(1, "C"))
    assert parse_cards("5H JD AC") == expected
    assert parse_cards("5H,JD, AC") == expected
    assert parse_cards(["5H", "JD", "AC"]) == expected
    assert parse_cards("") == ()


def test_parse_cards_refuses_a_duplicate_unless_asked_not_to() -> None:
    with pytest.raises(CardError, match="5H appears twice"):
        parse_cards("5H 6C 5h")
    assert len(parse_cards("5H 6C 5h", distinct=False)) == 3


def test_format_cards_round_trips() -> None:
    assert format_cards(parse_cards("5H 10D js")) == "5H TD JS"
    assert parse_cards(format_cards(FULL_DECK)) == FULL_DECK


def test_the_full_deck_has_52_different_cards_with_distinct_indexes() -> None:
    assert len(FULL_DECK) == len(set(FULL_DECK)) == 52
    assert sorted(card.index for card in FULL_DECK) == list(range(52))


def test_the_shuffle_is_a_permutation_replayed_by_its_seed_and_label() -> None:
    deck = shuffled_deck(b"seed one", "deal:1:1")
    assert sorted(deck) == sorted(FULL_DECK)
    assert deck != FULL_DECK
    assert shuffled_deck(b"seed one", "deal:1:1") == deck
    assert shuffled_deck(b"seed one", "deal:1:2") != deck
    assert shuffled_deck(b"seed two", "deal:1:1") != deck


def test_the_shuffle_can_shuffle_part_of_a_deck() -> None:
    part = FULL_DECK[:5]
    shuffled = shuffled_deck(b"s", "cut:0", part)
    assert sorted(shuffled) == sorted(part)


def test_the_shuffle_puts_every_card_everywhere() -> None:
    first_cards = {shuffled_deck(b"spread", f"deal:{i}")[0] for i in range(600)}
    assert len(first_cards) == 52
