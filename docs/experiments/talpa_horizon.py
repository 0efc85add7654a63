#!/usr/bin/env python3
"""A fixed set of Talpa positions where a move loses beyond the search's horizon (issue 34,
eleventh pass), and a build's score on it: less noise than 200-game matches against the
two-ply player, whose seeds move by 3 to 4 % from run to run.

build: reads match records (`tabuleiro match --out F.jsonl`), keeps the games the engine
named by --name lost, and walks each one back from its end over the engine's positions:
`go solve` (a fresh table, stopped after --solve s) on the position and on the position
after the game's move. A position not proven lost whose game move is proven lost (the
opponent to move wins) goes into the set, with the engine's clock left there (from the
record's `move_ms`: 1,000 ms less each move plus 10 after it). The walk stops at the second
position whose game move is not proven lost. Prints the set, one JSON line a position.

    python3 docs/experiments/talpa_horizon.py build --bin BIN F.jsonl ... > set.jsonl

score: plays each set position with BIN on the game's clock (`go wtime T btime T winc 10
binc 10`, T the clock left; after `uginewgame`, so no table from earlier moves) or with
--movetime, and counts the positions where the move played is not proven lost: the game's
move is; any other is checked by `go solve` of --solver on the position after it (stopped
after --solve s; proofs are kept in --cache between runs). A position counts as avoided
when no proof is found, so a longer --solve makes the score stricter, never kinder.

    python3 docs/experiments/talpa_horizon.py score --bin BIN [--env K=V,...] \
        [--movetime MS] [--runs N] tests/data/talpa_horizon.jsonl

Prints one line a position (each run's move, score, depth and time) and `avoided A/N`.
The set is of positions the build that lost the games got wrong, so main scores low on it
by construction; compare builds with each other, not with 100 %. Talpa 8x8, default
options (`Tablebase` on), one process for the searches and one for the proofs.
"""

import argparse
import json
import os
import queue
import subprocess
import threading
import time


class Engine:
    """One engine process over UGI, Talpa chosen."""

    def __init__(self, binary, env=None):
        environment = dict(os.environ)
        environment.update(env or {})
        self.proc = subprocess.Popen(
            ['nice', '-n', '10', binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1, env=environment)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send('setoption name Game value talpa')
        self.ready()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + '\n')
        self.proc.stdin.flush()

    def ready(self):
        self.send('isready')
        while True:
            line = self.lines.get()
            if line is None or line.startswith('readyok'):
                return

    def go(self, moves, command, limit=None):
        """(bestmove, the `info string solved` text or None, last info line, seconds)."""
        self.send('uginewgame')
        self.ready()
        self.send('position startpos' + (' moves ' + ' '.join(moves) if moves else ''))
        self.send(command)
        started, info, solved, stopped = time.time(), None, None, False
        while True:
            try:
                line = self.lines.get(timeout=0.02)
            except queue.Empty:
                line = ''
            if line is None:
                raise RuntimeError('the engine ended')
            if line.startswith('info') and ' score ' in line:
                info = line
            if line.startswith('info string solved'):
                solved = line.split('solved ', 1)[1]
            if line.startswith('bestmove'):
                return line.split()[1], solved, info, time.time() - started
            if limit and not stopped and time.time() - started > limit:
                self.send('stop')
                stopped = True

    def quit(self):
        self.send('quit')
        self.proc.wait()


def word_after(info, key):
    words = (info or '').split()
    return ' '.join(words[words.index(key) + 1:][:2 if key == 'score' else 1]) if key in words else '?'


def build(args):
    engine = Engine(args.bin)

    def solve(moves):
        return engine.go(moves, 'go solve', args.solve)[1]

    for path in args.records:
        for line in open(path):
            game = json.loads(line)
            if game['winner'] in (args.name, None):
                continue
            opening = game['opening'].split()[2:] if ' moves ' in game['opening'] else []
            moves = opening + game['moves']
            side = 0 if game['p1'] == args.name else 1
            clock, clocks = 1000, {}
            for index, ms in enumerate(game['move_ms']):
                if (len(opening) + index) % 2 == side:
                    clocks[len(opening) + index] = clock
                    clock = clock - ms + 10
            unproven = 0
            for i in reversed([i for i in clocks]):
                before = solve(moves[:i])
                if before and before.startswith('loss'):
                    continue
                after = solve(moves[:i + 1])
                if after and after.startswith('win'):
                    print(json.dumps(dict(
                        src=os.path.basename(path), game=game['game'], ply=i + 1,
                        moves=moves[:i], bad=[moves[i]], clock=clocks[i], before=before,
                        after=after)), flush=True)
                unproven += 1
                if unproven >= 2:
                    break
    engine.quit()


def score(args):
    cache = json.load(open(args.cache)) if args.cache and os.path.exists(args.cache) else {}
    env = dict(kv.split('=', 1) for kv in args.env.split(',') if kv)
    engine, solver = Engine(args.bin, env), None
    avoided = total = 0
    for path in args.sets:
        for line in open(path):
            position = json.loads(line)
            for bad in position['bad']:
                cache.setdefault(' '.join(position['moves'] + [bad]), position['after'])
            runs = []
            for _ in range(args.runs):
                if args.movetime:
                    command = f'go movetime {args.movetime}'
                else:
                    clock = position['clock']
                    command = f'go wtime {clock} btime {clock} winc 10 binc 10'
                best, _, info, seconds = engine.go(position['moves'], command)
                key = ' '.join(position['moves'] + [best])
                if key not in cache:
                    solver = solver or Engine(args.solver)
                    cache[key] = solver.go(position['moves'] + [best], 'go solve', args.solve)[1]
                lost = bool(cache[key] and cache[key].startswith('win'))
                total += 1
                avoided += not lost
                runs.append(f"{best}{' (lost)' if lost else ''} {word_after(info, 'score')} "
                            f"d{word_after(info, 'depth')} {seconds * 1000:.0f}ms")
            print(f"{position['src']} game {position['game']} ply {position['ply']} "
                  f"clock {position['clock']}: " + ' | '.join(runs), flush=True)
    if args.cache:
        json.dump(cache, open(args.cache, 'w'))
    print(f'avoided {avoided}/{total}')
    engine.quit()
    if solver:
        solver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    commands = parser.add_subparsers(dest='command', required=True)
    b = commands.add_parser('build')
    b.add_argument('records', nargs='+')
    b.add_argument('--bin', required=True)
    b.add_argument('--name', default='engine')
    b.add_argument('--solve', type=float, default=3.0)
    s = commands.add_parser('score')
    s.add_argument('sets', nargs='+')
    s.add_argument('--bin', required=True)
    s.add_argument('--solver', help='the binary of the proofs (default: --bin)')
    s.add_argument('--env', default='', help='K=V,... for the engine process')
    s.add_argument('--movetime', type=int, default=0)
    s.add_argument('--runs', type=int, default=1)
    s.add_argument('--solve', type=float, default=4.0)
    s.add_argument('--cache', default='', help='a JSON file of the proofs found')
    args = parser.parse_args()
    if args.command == 'build':
        build(args)
    else:
        args.solver = args.solver or args.bin
        score(args)


if __name__ == '__main__':
    main()
