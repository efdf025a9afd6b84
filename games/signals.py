"""What the match layer tells the rest of the site. Services send these; they never import the
listeners (tournaments, ratings, the computer player), which connect in their AppConfig.ready().

- `match_ended(sender=Match, match=...)`: inside the transaction that ends the match (played
  out, resigned, abandoned, aborted, cancelled or called off), after the row is saved and while
  it is still locked, so a listener's writes commit or roll back with the match's end. Lock
  order: the match first, then whatever the listener locks (a tournament).
- `match_changed(sender=Match, match_id=..., seq=..., to_move=[...], computer_to_move=bool)`:
  after the commit of any change to a match in play (a move, a seat taken, a start).
"""

from django.dispatch import Signal

match_ended = Signal()
match_changed = Signal()
