#!/usr/bin/env python3
"""Replay the engine's lost Linetris games with long searches (issue 34, tenth pass).

Reads match records (`tabuleiro match --out F.jsonl`), keeps the distinct games the
engine named by --engine lost, and for each one searches every position where the
engine was to move, from a fresh process, with `go movetime` --ms (3000 by default),
until the first position the long search scores as a forced loss (`score mate -N`).
The engine's move before that position is the error: the script then searches the
position before it again (the long search's move and score against the game's move),
the position after the game's move (the opponent to move: a mate for it confirms),
and the error position with the game's own time for that move (the depth the clock
gave). --opening-ms also searches the position after the random plies that long
(a lost opening: the long search finds a forced loss there already); that search
runs with `Tablebase` off, since the opening table would answer it at depth 1.
--openings-only does that search alone for each lost game (no replay).

--probe REPLAY.txt (the output of a run above, with the same records) searches each
error position again with the shorter times of --probe-ms (a fresh process each) and
prints the move each one plays beside the game's move and the long search's: how much
time the engine would need to avoid the error.

    python3 docs/experiments/linetris_replay.py --bin BIN [--ms 3000] \
        [--opening-ms 45000] F.jsonl ...

Prints one block a distinct lost game and a summary line for each; nothing else
is written. The engine binary is driven over UGI (default game options: 6x7, row
clear on), one process a search so that no table carries over.
"""

import argparse
import json
import subprocess
import sys


def search(binary, moves, ms=None, extra="", table=True):
    """One search from a fresh process: (depth, score kind, score, best move, pv).
    `table` False sets `Tablebase` off (no opening table, no solvers)."""
    pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
    go = f"go movetime {ms}" if ms is not None else "go " + extra
    off = "" if table else "setoption name Tablebase value false\n"
    script = f"ugi\nsetoption name Game value linetris\n{off}isready\n{pos}\n{go}\n"
    proc = subprocess.Popen(
        [binary],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(script)
    proc.stdin.flush()
    last = None
    best = None
    for line in proc.stdout:
        words = line.split()
        if not words:
            continue
        if words[0] == "info" and "score" in words and "depth" in words:
            last = words
        elif words[0] == "bestmove":
            best = words[1]
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    if last is None:
        return (0, "none", 0, best, [])
    depth = int(last[last.index("depth") + 1])
    i = last.index("score")
    kind, value = last[i + 1], int(last[i + 2])
    pv = last[last.index("pv") + 1 :] if "pv" in last else []
    return (depth, kind, value, best, pv)


def show(result):
    depth, kind, value, best, _ = result
    text = f"mate {value}" if kind == "mate" else f"{value:+d}"
    return f"{best} {text} d{depth}"


def lost(result):
    return result[1] == "mate" and result[2] < 0


def records(files):
    """The records of `files` by "seed#game"."""
    out = {}
    for name in files:
        with open(name) as f:
            for line in f:
                g = json.loads(line)
                out[f"{g.get('seed')}#{g['game']}"] = g
    return out


def probe(args):
    by_tag = records(args.files)
    times = [int(t) for t in args.probe_ms.split(",")]
    tag = None
    with open(args.probe) as f:
        lines = f.readlines()
    for line in lines:
        if line.startswith("== games "):
            tag = line.split()[2].rstrip(":")
        elif line.strip().startswith("error ply") and tag is not None:
            words = line.split()
            ply = int(words[2].rstrip(":"))
            game_move = words[4]
            long_move = line.split("long ")[1].split()[0]
            g = by_tag[tag]
            opening = g["opening"].split()
            opening = opening[opening.index("moves") + 1 :] if "moves" in opening else []
            moves = opening + g["moves"]
            found = [f"{t} ms: {show(search(args.bin, moves[:ply], t))}" for t in times]
            print(f"{tag} ply {ply}: game {game_move}, long {long_move}; " + "; ".join(found), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--engine", default="engine")
    ap.add_argument("--ms", type=int, default=3000)
    ap.add_argument("--opening-ms", type=int, default=0)
    ap.add_argument("--probe", default=None)
    ap.add_argument("--probe-ms", default="100,300,1000")
    ap.add_argument("--openings-only", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.probe:
        return probe(args)

    games = {}
    for name in args.files:
        with open(name) as f:
            for line in f:
                g = json.loads(line)
                if g.get("winner") in (None, args.engine) or g["result"] == "draw":
                    continue
                opening = g["opening"].split()
                opening = opening[opening.index("moves") + 1 :] if "moves" in opening else []
                key = (tuple(opening), tuple(g["moves"]))
                tag = f"{g.get('seed')}#{g['game']}"
                if key in games:
                    games[key]["tags"].append(tag)
                else:
                    side = 0 if g["p1"] == args.engine else 1
                    games[key] = {"g": g, "opening": opening, "side": side, "tags": [tag]}

    print(f"{len(games)} distinct lost games", flush=True)
    summary = []
    for (opening, played), info in games.items():
        g, side = info["g"], info["side"]
        moves = list(opening) + list(played)
        ms = g["move_ms"]
        who = "x" if side == 0 else "o"
        print(
            f"\n== games {' '.join(info['tags'])}: opening `{' '.join(opening)}`, "
            f"engine {who}, {len(moves)} plies, reason {g['reason']}",
            flush=True,
        )
        opening_result = None
        if args.opening_ms:
            opening_result = search(args.bin, list(opening), args.opening_ms, table=False)
            mover = "x" if len(opening) % 2 == 0 else "o"
            print(f"  after the opening ({mover} to move), {args.opening_ms} ms: {show(opening_result)}", flush=True)
        if args.openings_only:
            continue
        prev = None
        found = None
        for k in range(len(opening), len(moves)):
            if k % 2 != side:
                continue
            r = search(args.bin, moves[:k], args.ms)
            t = ms[k - len(opening)]
            mark = "" if r[3] == moves[k] else "  (game " + moves[k] + ")"
            print(f"  ply {k}: {show(r)}  clock {t} ms{mark}", flush=True)
            if lost(r):
                found = (k, r)
                break
            prev = (k, r)
        if found is None:
            summary.append((info["tags"], " ".join(opening), who, "never lost at the long search", ""))
            continue
        k, r = found
        if prev is None:
            summary.append(
                (
                    info["tags"],
                    " ".join(opening),
                    who,
                    f"lost at ply {k} ({show(r)}), the engine's first move",
                    "" if opening_result is None else "opening " + show(opening_result),
                )
            )
            continue
        e, pr = prev
        after = search(args.bin, moves[: e + 1], args.ms)
        quick = search(args.bin, moves[:e], max(ms[e - len(opening)], 5))
        print(
            f"  error ply {e}: game {moves[e]} (clock {ms[e - len(opening)]} ms: {show(quick)}); "
            f"long {show(pr)}; after the game's move, opponent: {show(after)}",
            flush=True,
        )
        summary.append(
            (
                info["tags"],
                " ".join(opening),
                who,
                f"error ply {e}: game {moves[e]}, long {show(pr)}, after it {show(after)}; lost at ply {k} ({show(r)})",
                "" if opening_result is None else "opening " + show(opening_result),
            )
        )
    print("\nsummary")
    for tags, opening, who, what, extra in summary:
        print(f"| `{opening}`, {who} | {', '.join(tags)} | {what} | {extra}")


if __name__ == "__main__":
    sys.exit(main())
