"""What `doodlebox validate` and `doodlebox score` print for a Deadly Doodles record: each
player's scoring section (items 1 to 7), the Trap hits, and the final table. A record with
tallies (ruling D14) shows the counts each player gave."""
from __future__ import annotations

from doodlebox.rules.deadly.engine import Result, score
from doodlebox.rules.deadly.record import Replay
from doodlebox.rules.ending import ending, seat


def _name(rp: Replay, p: int) -> str:
    return seat(rp.record.players, p)


def as_json(rp: Replay) -> dict:
    res = score(rp.state)
    rec = rp.record
    m = rec.map
    st = rp.state
    return {
        "record": rec.source,
        "edition": rec.edition,
        "variant": "solo" if len(rec.players) == 1 else "",
        "map": m.name,
        "drawings": "tallies" if rec.tallies is not None else "full",
        "players": rec.players,
        "rounds": st.round,
        "finished": rp.finished,
        "status": ending(rp).status,
        "valid": not rp.violations,
        "violations": [v.as_dict() for v in rp.violations],
        "sheets": [
            {"player": rec.players[ss.player], "total": ss.total, "items": [list(i) for i in ss.items],
             "loot": [m.room_name(i) for i in ss.loot], "dragon": ss.dragon, "weapons": ss.weapons,
             "monsters_killed": ss.killed, "monsters_mauled": ss.mauled,
             "entryways_not_linked": ss.free_entryways, "unused": ss.unused,
             "unused_cards": [{"round": r, "card": c, "kind": rec.deck.kind_of[c]}
                              for r, c in st.boards[ss.player].unused],
             "trap_hits": [{"room": m.room_name(h.room), "by": rec.players[h.owner], "same_coordinates": h.same}
                           for h in ss.hits],
             "segments": st.boards[ss.player].segments(),
             "traps": [m.room_name(i) for i, t in enumerate(st.boards[ss.player].trap) if t],
             **({"tallies": ss.counts.as_dict() if ss.counts is not None else None}
                if rec.tallies is not None else {})}
            for ss in res.sheets],
        "winners": [rec.players[p] for p in ending(rp).winners],
    }


def sheets_text(rp: Replay, res: Result | None = None) -> str:
    res = res or score(rp.state)
    st = rp.state
    m = rp.record.map
    out = []
    for ss in res.sheets:
        b = st.boards[ss.player]
        traps = [m.room_name(i) for i, t in enumerate(b.trap) if t]
        drawn = (f"{b.segments()} path segments" if not st.game.tallies
                 else "path segments on paper, counted by the player" if ss.counts is not None
                 else "path segments on paper, not counted yet")
        out.append(f"{_name(rp, ss.player)}: {drawn}" + (f", Traps in {', '.join(traps)}" if traps else ""))
        for what, pts in ss.items:
            out.append(f"  {pts:>+4}  {what}")
        out.append(f"  {ss.total:>4}  total")
    if res.erased:
        rooms = sorted({i for _, i in res.erased})
        out.append("Traps in the same coordinates, erased from all maps: " + ", ".join(m.room_name(i) for i in rooms))
    return "\n".join(out)


def table_text(rp: Replay) -> str:
    res = score(rp.state)
    rec = rp.record
    end = ending(rp)
    rows = sorted(res.sheets, key=lambda ss: (-ss.total, ss.player))
    width = max(len(n) for n in rec.players)
    solo = len(rec.players) == 1
    name = rec.map.name if "Deadly Doodles" in rec.map.name else f"Deadly Doodles ({rec.map.name})"
    out = [f"{name}, {'solo' if solo else f'{len(rec.players)} players'}: "
           f"{rp.state.round} of 7 rounds" + end.heading()]
    for ss in rows:
        mark = ("  winner" if ss.player in end.winners else
                "  leading" if not end.over and ss.player in res.winners else "")
        out.append(f"  {rec.players[ss.player]:<{width}}  {ss.total:>4}{mark}")
    if len(end.winners) > 1:
        out.append("  a tie: the tied players share the win (ruling D11)")
    if solo:
        out.append("  solo: try to beat your best score")
    return "\n".join(out)
