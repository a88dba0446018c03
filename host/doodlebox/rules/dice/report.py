"""What `doodlebox validate` and `doodlebox score` print: score sheets, violations, the table."""
from __future__ import annotations

from doodlebox.rules.dice.record import Replay
from doodlebox.rules.dice.scoring import Result, score
from doodlebox.rules.ending import Ending, ending, seat


def as_json(rp: Replay) -> dict:
    res = score(rp.state)
    rec = rp.record
    end = ending(rp)
    return {
        "record": rec.source,
        "edition": rec.edition,
        "variant": rec.variant or ("solo" if len(rec.players) == 1 else ""),
        "players": rec.players,
        "rounds": rp.state.round,
        "finished": rp.finished,
        "status": end.status,
        "ending": rp.state.ending,
        "valid": not rp.violations,
        "violations": [v.as_dict() for v in rp.violations],
        "sheets": [
            {"player": rec.players[ss.player], "total": ss.total, "items": [list(i) for i in ss.items],
             "scored": [dict(track=s.track, at=list(s.at), worth=s.worth, value=s.value, round=s.round,
                             bonus=s.bonus, houses=s.houses) for s in rp.state.sheets[ss.player].scored],
             "trees_crossed": ss.trees_crossed, **_solo(ss, end)}
            for ss in res.sheets],
        "winners": [rec.players[p] for p in end.winners],
        "tie_break": res.tie_break if end.winners else "",
    }


def _name(rp: Replay, p: int) -> str:
    return seat(rp.record.players, p)


def _solo(ss, end: Ending) -> dict:
    """A solo sheet's rank and achievements: awarded only to a game its rules ended (ruling G1)."""
    return {"rank": ss.rank, "achievements": ss.achievements} if end.finished else {"rank": "", "achievements": []}


def sheets_text(rp: Replay, res: Result | None = None) -> str:
    res = res or score(rp.state)
    lay = rp.record.layout
    end = ending(rp)
    out = []
    for ss in res.sheets:
        sh = rp.state.sheets[ss.player]
        out.append(f"{_name(rp, ss.player)}")
        for s in sh.scored:
            word = lay.word(s.track)
            got = f"circled {s.value}" if s.value else "nothing free to circle"
            extra = f" + bonus {s.bonus}" if s.bonus else ""
            worth = {"hotel": f"{lay.word('road')} of {s.worth}", "shop": f"{s.houses} {lay.word('houses')}",
                     "skyscraper": f"{s.worth}"}.get(s.track, str(s.worth))
            out.append(f"  round {s.round}: {word} at {list(s.at)}, {worth}: {got}{extra}")
        for what, pts in ss.items:
            out.append(f"  {pts:>+4}  {what}")
        solo = _solo(ss, end)
        out.append(f"  {ss.total:>4}  total" + (f"   rank: {solo['rank']}" if solo["rank"] else ""))
        if solo["achievements"]:
            out.append("        achievements: " + ", ".join(solo["achievements"]))
    return "\n".join(out)


def table_text(rp: Replay) -> str:
    res = score(rp.state)
    rec = rp.record
    end = ending(rp)
    rows = sorted(res.sheets, key=lambda ss: (-ss.total, ss.trees_crossed))
    width = max(len(n) for n in rec.players)
    tree = rec.layout.word("trees")
    out = [f"{rec.layout.name}, {len(rec.players)} player(s){', More control' if rec.variant else ''}: "
           f"{rp.state.round} rounds" + end.heading()]
    for ss in rows:
        mark = ("  winner" if ss.player in end.winners else
                "  leading" if not end.over and len(rec.players) > 1 and ss.player in res.winners else "")
        rank = _solo(ss, end)["rank"]
        out.append(f"  {rec.players[ss.player]:<{width}}  {ss.total:>4}  ({ss.trees_crossed} {tree} crossed){mark}"
                   + (f"  {rank}" if rank else ""))
    if res.tie_break and end.winners:
        out.append("  " + res.tie_break)
    return "\n".join(out)
