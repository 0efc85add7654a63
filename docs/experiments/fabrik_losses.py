#!/usr/bin/env python3
"""Fabrik losses replayed by proof (issue 33, eleventh pass; docs/experiments/fabrik.md).

collect FILE NAME BIN T: for each game of the match record FILE (`tabuleiro match --out`)
that NAME lost, walk back from the end over the positions after NAME's moves, each
`go solve`d for T seconds by BIN from a fresh process, while the opponent is proven to
win. The earliest such move is the fatal move found; the position before it is
solved too. Prints one tab-separated line per loss: game, ply, the clocks of p1 (black)
and p2 (white) before the fatal move (ms, as in the game; NAME's is the first only when
NAME played black), the moves before the fatal move, the fatal move, the
opponent's proven win after it (plies), and what the position before was (`win N`,
`loss N`, or `open` when not proven in T s). The set of positions: those whose position
before is not proven lost (another move is not proven lost).

score SET BIN T [MS]: each position of SET (the lines of `collect`, not `loss`), played by
BIN from a fresh process with the game's clock (`go wtime … winc 10 binc 10`), or with `go
movetime MS` when MS is given (how much time at that ply would have found a holding move);
its move is counted lost when it is the fatal move or when `go solve` (T s) proves the
opponent wins after it. Prints the positions held and each one lost."""
import json, subprocess, sys, threading


def ask(binary, moves, go, seconds):
    """Runs one search from a fresh process: (solved, bestmove, last score)."""
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    # As a referee does: the search starts after `readyok`, so the engine's preparation
    # for the game is not charged to the first `go`.
    p.stdin.write("setoption name Game value fabrik\nisready\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.startswith("readyok"):
            break
    p.stdin.write("position startpos moves " + " ".join(moves) + "\n" + go + "\n")
    p.stdin.flush()

    def stop():
        try:
            p.stdin.write("stop\n")
            p.stdin.flush()
        except OSError:
            pass

    timer = threading.Timer(seconds, stop)
    timer.start()
    solved, best, score = None, None, None
    for line in p.stdout:
        words = line.split()
        if line.startswith("info string solved"):
            solved = (words[3], int(words[5]))
        elif line.startswith("info") and "score" in words:
            i = words.index("score")
            depth = words[words.index("depth") + 1] if "depth" in words else "?"
            score = f"{words[i + 1]} {words[i + 2]} d{depth}"
        elif line.startswith("bestmove"):
            best = words[1]
            break
    timer.cancel()
    try:
        p.stdin.write("quit\n")
        p.stdin.flush()
    except OSError:
        pass
    p.wait()
    return solved, best, score


def collect(path, name, binary, seconds):
    for line in open(path):
        d = json.loads(line)
        if name not in (d["p1"], d["p2"]) or d["winner"] == name:
            continue
        opening = d["opening"].split()[2:]
        seq = opening + d["moves"]
        side = 0 if d["p1"] == name else 1
        clocks, at = [1000, 1000], {}
        for i, ms in enumerate(d["move_ms"]):
            k = i + len(opening)
            at[k] = tuple(clocks)
            clocks[k % 2] += 10 - ms
        fatal, proof = None, None
        for k in reversed([k for k in range(len(seq)) if k % 2 == side and k in at]):
            solved, _, _ = ask(binary, seq[: k + 1], "go solve", seconds)
            if not solved or solved[0] != "win":
                break
            fatal, proof = k, solved[1]
        if fatal is None:
            print(f"# game {d['game']}: the last move not proven lost", flush=True)
            continue
        before, _, _ = ask(binary, seq[:fatal], "go solve", seconds)
        status = f"{before[0]} {before[1]}" if before else "open"
        w, b = at[fatal]
        print(f"{d['game']}\t{fatal}\t{w}\t{b}\t{' '.join(seq[:fatal])}\t{seq[fatal]}\t{proof}\t{status}",
              flush=True)


def score(path, binary, seconds, movetime=None):
    held, total = 0, 0
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        game, ply, w, b, moves, fatal, _, status = line.rstrip("\n").split("\t")
        if status.startswith("loss"):
            continue
        total += 1
        moves = moves.split()
        go = f"go movetime {movetime}" if movetime else f"go wtime {w} btime {b} winc 10 binc 10"
        _, move, sc = ask(binary, moves, go, 30)
        lost = move == fatal
        if not lost:
            solved, _, _ = ask(binary, moves + [move], "go solve", seconds)
            lost = bool(solved) and solved[0] == "win"
        held += not lost
        print(f"game {game} ply {ply} ({status}): {move} ({sc}) {'LOST' if lost else 'holds'}", flush=True)
    print(f"held {held}/{total}")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "collect":
        collect(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    elif len(sys.argv) >= 5 and sys.argv[1] == "score":
        score(sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5] if len(sys.argv) > 5 else None)
    else:
        sys.exit(__doc__)
