//! Linetris evaluation: threats first.
//!
//! From the side to move's point of view:
//! - A playable winning cell of the side to move: it wins next move. Two playable
//!   winning cells of the opponent (or one with another right above it): lost.
//! - Lines of four cells free of the opponent's pieces, weighted by how many of our
//!   pieces they hold (1, 2, 3). Central cells lie on more lines, so this also
//!   rewards the centre.
//! - Threats (empty cells that would complete a line) that are not playable yet, as
//!   in Connect Four theory: a threat on a row of the owner's parity (odd rows,
//!   counted from 1 at the bottom, for the first player; even rows for the second) is
//!   worth more, two threats of one side stacked in a column are nearly decisive, and
//!   a threat right above an opponent's threat is worth little (the opponent claims
//!   the lower cell first).
//! - Linetris (RowClear on), the lines evaluation: a nearly full bottom row is about to
//!   vanish, taking every line through it; such lines count for less (a half with two
//!   cells of the bottom row empty, a quarter with one).
//! - Linetris, the search: a leaf whose side to move has at most two safe moves (not
//!   right under an opponent's winning cell) is searched on, not judged: late games
//!   turn on which side runs out of safe moves first, past a static score's sight.
//! - The search is selective ([`Evaluator::selectivity`]): late quiet moves are
//!   searched shallower and quiet moves are ordered by their history of cut-offs.
//!
//! Connect Four (RowClear off) uses the lines and the threat analysis. Linetris
//! (RowClear on) uses weights fitted to the row clear 5×5 table's exact values
//! ([`FITTED`], the terms of [`features`]: lines by count and by the bottom row's open
//! cells, threats by parity, threats that outlive a clear, stacked threats, pieces in
//! the bottom row, the opponent's playable threat), which beat the lines evaluation
//! with the bottom-row discount in games (`docs/experiments/linetris.md`). Row clear
//! games are lost by the side that runs out of safe moves first, so the terms also
//! count each side's unsafe moves and a side left with one safe move, and who runs
//! out of free cells first (the empty cells below the lowest cell under a threat,
//! column by column; a clear moves a column and its threats down together) and with
//! what escape: a cell under its own threat only.

use super::{Linetris, Move};
use crate::game::{Game, Player};
use crate::search::Evaluator;

/// The evaluation as a value: the default is the one described above; the switches
/// leave a term out, for matches (`examples/linetris_match.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LinetrisEval {
    /// The threat analysis (Connect Four only).
    pub threats: bool,
    /// The bottom-row discount (Linetris only).
    pub bottom_discount: bool,
    /// Linetris: the weights fitted to the row clear's exact values ([`FITTED`])
    /// instead of the lines and the bottom-row discount.
    pub fitted: bool,
}

impl Default for LinetrisEval {
    fn default() -> Self {
        LinetrisEval {
            threats: true,
            bottom_discount: true,
            fitted: true,
        }
    }
}

impl Evaluator<Linetris> for LinetrisEval {
    fn evaluate(&mut self, state: &Linetris) -> i32 {
        evaluate_with(state, self)
    }

    fn order_hint(&mut self, state: &Linetris, mv: Move) -> i32 {
        order_hint(state, mv)
    }

    fn is_win_now(&self, score: i32) -> bool {
        // Only a playable winning cell of the mover scores that much.
        score == WIN_NEXT
    }

    fn win_now(&mut self, state: &Linetris) -> Option<Move> {
        let geo = state.geometry();
        let mask = state.occupied();
        let cells =
            geo.winning_cells(state.pieces(state.side_to_move()), mask) & geo.playable(mask);
        (cells != 0).then(|| column_of(state, cells))
    }

    fn forced_replies(&mut self, state: &Linetris, moves: &mut Vec<Move>) -> bool {
        let Some(threats) = threats_now(state) else {
            return false;
        };
        moves.clear();
        let mut cells = threats;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells ^= cell;
            moves.push(column_of(state, cell));
        }
        // A move that fills the bottom row clears it and shifts every threat down.
        let geo = state.geometry();
        let mask = state.occupied();
        let open_bottom = geo.bottom & !mask;
        if state.rules().row_clear && open_bottom.count_ones() == 1 {
            let clear = column_of(state, open_bottom);
            if !moves.contains(&clear) {
                moves.push(clear);
            }
        }
        true
    }

    fn threatened(&mut self, state: &Linetris) -> bool {
        threats_now(state).is_some()
    }

    fn selectivity(&self) -> crate::search::eval::Selectivity {
        // Fabrik's and Talpa's selective search: quiet moves ordered by their history
        // of cut-offs beside the hints, and from the fifth (of seven at most) two plies
        // shallower at depth 4 or more. Won games on 6×7 against the plain search and
        // the two-ply player, and kept row clear 5×5's exact values as often
        // (docs/experiments/linetris.md, fourteenth pass).
        crate::search::eval::Selectivity {
            reduce_more_from: 4,
            history: 100,
            ..crate::search::eval::Selectivity::NONE
        }
    }

    fn search_on(&mut self, state: &Linetris) -> bool {
        // Late in a row clear game the sides run out of moves that do not play under
        // the other's winning cell, and the game turns on who runs out first: a leaf
        // with few such moves left is searched on rather than judged statically.
        state.rules().row_clear && state.outcome().is_none() && safe_moves(state) <= FEW_SAFE
    }
}

/// A Linetris (`RowClear` on) leaf whose side to move has at most this many
/// [`safe_moves`] is searched on ([`Evaluator::search_on`]; 1, 2 and 3 were measured:
/// docs/experiments/linetris.md, "Eighth pass").
const FEW_SAFE: u32 = 2;

/// The side to move's moves that do not hand the opponent a win right above them (a
/// move that clears the bottom row counts as safe: the clear moves the cell away).
pub fn safe_moves(s: &Linetris) -> u32 {
    let geo = s.geometry();
    let mask = s.occupied();
    let opp_threats = geo.winning_cells(s.pieces(s.side_to_move().other()), mask);
    safe_cells(s, geo.playable(mask), opp_threats).count_ones()
}

/// The opponent's winning cells that are playable now, when the side to move must
/// answer them: not when its move may end the game by the ply limit (a draw).
fn threats_now(s: &Linetris) -> Option<u128> {
    if s.plies() + 1 >= s.rules().limit {
        return None;
    }
    let geo = s.geometry();
    let mask = s.occupied();
    let threats = geo.winning_cells(s.pieces(s.side_to_move().other()), mask) & geo.playable(mask);
    (threats != 0).then_some(threats)
}

/// The column of the lowest set cell of `cells`.
fn column_of(s: &Linetris, cells: u128) -> Move {
    Move((cells.trailing_zeros() / (s.geometry().rows + 1)) as u8)
}

/// The side to move wins next move.
const WIN_NEXT: i32 = 5_000;
/// The side to move cannot stop the opponent's win.
const LOST: i32 = -4_500;

/// Weights of a line free of the opponent with 1, 2 and 3 of our pieces.
const LINE_WEIGHTS: [i32; 4] = [0, 1, 5, 20];

/// The pieces and threats both evaluations start from.
struct Board {
    us: Player,
    them: Player,
    own: u128,
    opp: u128,
    mask: u128,
    playable: u128,
    own_threats: u128,
    opp_threats: u128,
    /// The opponent's playable winning cells.
    opp_now: u128,
}

impl Board {
    /// The board of `s`, or its exact score when the side to move wins next move
    /// ([`WIN_NEXT`]) or cannot stop the opponent's win ([`LOST`]: two playable winning
    /// cells, or one with another right above it).
    fn read(s: &Linetris) -> Result<Board, i32> {
        let us = s.side_to_move();
        let them = us.other();
        let own = s.pieces(us);
        let opp = s.pieces(them);
        let geo = s.geometry();
        let mask = own | opp;
        let playable = geo.playable(mask);
        let own_threats = geo.winning_cells(own, mask);
        if own_threats & playable != 0 {
            return Err(WIN_NEXT);
        }
        let opp_threats = geo.winning_cells(opp, mask);
        let opp_now = opp_threats & playable;
        if opp_now.count_ones() >= 2 || (opp_now != 0 && (opp_now << 1) & opp_threats != 0) {
            return Err(LOST);
        }
        Ok(Board {
            us,
            them,
            own,
            opp,
            mask,
            playable,
            own_threats,
            opp_threats,
            opp_now,
        })
    }
}

/// The default evaluation, from the side to move's point of view.
pub fn evaluate(s: &Linetris) -> i32 {
    evaluate_with(s, &LinetrisEval::default())
}

/// The evaluation with some terms left out, from the side to move's point of view.
pub fn evaluate_with(s: &Linetris, terms: &LinetrisEval) -> i32 {
    if s.rules().row_clear
        && terms.fitted
        && let Some(f) = features(s)
    {
        let score: i32 = f.iter().zip(&FITTED).map(|(f, w)| f * w).sum();
        return (score / 4).clamp(-3_000, 3_000);
    }
    let Board {
        us,
        them,
        own,
        opp,
        mask,
        playable: _,
        own_threats,
        opp_threats,
        opp_now,
    } = match Board::read(s) {
        Ok(board) => board,
        Err(score) => return score,
    };
    let geo = s.geometry();
    // How much lines through the bottom row count, in quarters.
    let row_clear = s.rules().row_clear;
    let bottom_filled = (mask & geo.bottom).count_ones();
    let bottom_quarters = if !row_clear || bottom_filled + 2 < geo.cols || !terms.bottom_discount {
        4
    } else if bottom_filled + 2 == geo.cols {
        2
    } else {
        1
    };
    let mut score = lines(s, own, opp, bottom_quarters) - lines(s, opp, own, bottom_quarters);
    // Threat analysis pays in Connect Four only (see the module doc).
    if !row_clear && terms.threats {
        score += threats(s, us, own_threats, opp_threats, opp_now)
            - threats(s, them, opp_threats, own_threats, 0);
    }
    score.clamp(-3_000, 3_000)
}

/// The weights of [`features`] in quarters of the evaluation's unit, fitted to the
/// row clear 5×5 table's values (`examples/linetris_tune.rs`, docs/experiments/linetris.md).
pub const FITTED: [i32; FEATURES] = [
    10, 27, -12, -9, -25, -3, 3, 37, 0, -7, -11, 21, 4, 13, -2, -7, -12, 20, -1, 12, -3, -2, -7,
    -2, -26, -28, 48, 49, 69, -78, 48, -50, 3, 6, -72, -1, -26, 24, -54, -23, 23, -10, -36, -11,
    30, -78, 51,
];

/// The number of terms of [`features`].
pub const FEATURES: usize = 47;

/// The names of [`features`]' terms, in order (for the tuning example).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "own lines 1",
    "own lines 2",
    "own lines 3",
    "opp lines 1",
    "opp lines 2",
    "opp lines 3",
    "own bottom lines 1",
    "own bottom lines 2",
    "own bottom lines 3",
    "opp bottom lines 1",
    "opp bottom lines 2",
    "opp bottom lines 3",
    "own bottom lines 1, 2 open",
    "own bottom lines 2, 2 open",
    "own bottom lines 3, 2 open",
    "opp bottom lines 1, 2 open",
    "opp bottom lines 2, 2 open",
    "opp bottom lines 3, 2 open",
    "own bottom lines 1, 1 open",
    "own bottom lines 2, 1 open",
    "own bottom lines 3, 1 open",
    "opp bottom lines 1, 1 open",
    "opp bottom lines 2, 1 open",
    "opp bottom lines 3, 1 open",
    "own threats, good parity",
    "own threats, other parity",
    "opp threats, good parity",
    "opp threats, other parity",
    "own threats above the bottom row",
    "opp threats above the bottom row",
    "own stacked threats",
    "opp stacked threats",
    "own bottom pieces",
    "opp bottom pieces",
    "opp playable threat",
    "bottom row 1 open",
    "own unsafe moves",
    "opp unsafe moves",
    "own safe moves 1",
    "opp safe moves 1",
    "zugzwang on the mover",
    "zugzwang on the mover, own escapes",
    "zugzwang on the mover, opp traps",
    "zugzwang on the opp, opp escapes",
    "zugzwang on the opp, own traps",
    "zugzwang on the mover, no escape",
    "zugzwang on the opp, no escape",
];

/// The raw terms of a position that is no win next move and not lost at once, from
/// the side to move's point of view (`None` otherwise; see [`FEATURE_NAMES`]): lines
/// of four free of the other side by the pieces they hold (those through the bottom
/// row apart, by how many bottom cells are open: 3 or more, 2, 1), threats not yet
/// playable (by the row parity of Connect Four theory, whether every cell of the line
/// lies above the bottom row so that the threat outlives a clear, stacked ones),
/// pieces in the bottom row, a playable threat of the opponent, a bottom row one
/// piece from its clear; then each side's unsafe moves (right under a winning cell of
/// the other side) and whether it has one safe move left, and the zugzwang terms of
/// [`zugzwang`]: which side runs out of free cells first (an even number of them: the
/// mover), its escapes (columns whose lowest poisoned cell lies under its own threat
/// only) and its traps (under the other side's threat), and that side left with a
/// trap and no escape.
pub fn features(s: &Linetris) -> Option<[i32; FEATURES]> {
    let Board {
        us,
        them,
        own,
        opp,
        mask,
        playable,
        own_threats,
        opp_threats,
        opp_now,
    } = Board::read(s).ok()?;
    let geo = s.geometry();
    let mut f = [0; FEATURES];
    let open_bottom = geo.cols - (mask & geo.bottom).count_ones();
    let class = match open_bottom {
        0 | 1 => 2,
        2 => 1,
        _ => 0,
    };
    for (side, (a, b)) in [(own, opp), (opp, own)].into_iter().enumerate() {
        let counts = line_counts(s, a, b);
        for k in 0..3 {
            f[3 * side + k] = counts[k + 1][0];
            f[6 + 6 * class + 3 * side + k] = counts[k + 1][1];
        }
    }
    let above = geo.board & !geo.bottom;
    for (side, player, mine, theirs) in [
        (0, us, own_threats, opp_threats),
        (1, them, opp_threats, own_threats),
    ] {
        let pieces = if side == 0 { own } else { opp };
        let waiting = mine & !playable;
        let good_rows = match player {
            Player::P1 => row_parity_cells(geo, 0),
            Player::P2 => row_parity_cells(geo, 1),
        };
        f[24 + 2 * side] = (waiting & good_rows).count_ones() as i32;
        f[25 + 2 * side] = (waiting & !good_rows).count_ones() as i32;
        let lasting = geo.winning_cells(pieces & above, mask) & above & !playable;
        f[28 + side] = lasting.count_ones() as i32;
        f[30 + side] = (waiting & (mine << 1) & !(theirs << 1)).count_ones() as i32;
        f[32 + side] = (pieces & geo.bottom).count_ones() as i32;
    }
    f[34] = i32::from(opp_now != 0);
    f[35] = i32::from(open_bottom == 1);
    let (own_safe, opp_safe) = (
        safe_cells(s, playable, opp_threats).count_ones(),
        safe_cells(s, playable, own_threats).count_ones(),
    );
    let moves = playable.count_ones();
    f[36] = (moves - own_safe) as i32;
    f[37] = (moves - opp_safe) as i32;
    f[38] = i32::from(own_safe == 1);
    f[39] = i32::from(opp_safe == 1);
    let z = zugzwang(geo, mask, own_threats, opp_threats);
    let (own_escapes, own_traps) = (
        (z.lowest & z.under_own & !z.under_opp).count_ones() as i32,
        (z.lowest & z.under_own).count_ones() as i32,
    );
    let (opp_escapes, opp_traps) = (
        (z.lowest & z.under_opp & !z.under_own).count_ones() as i32,
        (z.lowest & z.under_opp).count_ones() as i32,
    );
    // With an even number of free cells the mover is the first to run out of them.
    if z.free.count_ones().is_multiple_of(2) {
        f[40] = 1;
        f[41] = own_escapes;
        f[42] = opp_traps;
        f[45] = i32::from(own_escapes == 0 && opp_traps > 0);
    } else {
        f[43] = opp_escapes;
        f[44] = own_traps;
        f[46] = i32::from(opp_escapes == 0 && own_traps > 0);
    }
    Some(f)
}

/// The cells of `playable` (the playable cells of `s`) that are not right under a cell
/// of `threats`; under the row clear the last open cell of the bottom row counts as
/// safe (the clear moves the cell above it away).
fn safe_cells(s: &Linetris, playable: u128, threats: u128) -> u128 {
    let geo = s.geometry();
    let mut unsafe_cells = playable & (threats >> 1);
    let open_bottom = geo.bottom & !s.occupied();
    if s.rules().row_clear && open_bottom.count_ones() == 1 {
        unsafe_cells &= !open_bottom;
    }
    playable & !unsafe_cells
}

/// Where the board runs out of moves that give nothing away.
struct Zugzwang {
    /// Empty cells below every poisoned cell of their column (a poisoned cell is an
    /// empty cell right under a threat of either side): the moves both sides can
    /// play before one of them must play a poisoned cell.
    free: u128,
    /// The lowest poisoned cell of every column that has one.
    lowest: u128,
    /// Empty cells right under a threat of the mover, of the opponent.
    under_own: u128,
    under_opp: u128,
}

/// The free cells and the lowest poisoned cells of `mask` (see [`Zugzwang`]). A clear
/// of the bottom row moves every column down a row, threats with it, so the free
/// cells of a column stay as many as long as the threats last.
fn zugzwang(
    geo: &super::bits::Geometry<u128>,
    mask: u128,
    own_threats: u128,
    opp_threats: u128,
) -> Zugzwang {
    let empty = geo.board & !mask;
    let under_own = (own_threats >> 1) & empty;
    let under_opp = (opp_threats >> 1) & empty;
    let poisoned = under_own | under_opp;
    // Every cell at or above a poisoned cell of its column (a shift by one never
    // leaves the column once masked: the sentinel row is not on the board).
    let mut above = poisoned;
    for _ in 1..geo.rows {
        above |= (above << 1) & geo.board;
    }
    Zugzwang {
        free: empty & !above,
        lowest: poisoned & !((above << 1) & geo.board),
        under_own,
        under_opp,
    }
}

/// The cells of the rows of one parity: `parity` 0 for rows 1, 3, 5 … counted from 1
/// at the bottom (indices 0, 2, 4 …), 1 for the others.
fn row_parity_cells(geo: &super::bits::Geometry<u128>, parity: u32) -> u128 {
    let mut cells = 0;
    for row in (parity..geo.rows).step_by(2) {
        cells |= geo.bottom << row;
    }
    cells
}

/// Lines of four free of `opp` by how many pieces of `own` they hold (0 to 3):
/// `[lines not through the bottom row, lines through it]`.
fn line_counts(s: &Linetris, own: u128, opp: u128) -> [[i32; 2]; 4] {
    let geo = s.geometry();
    let h = geo.rows;
    let free = geo.board & !opp;
    let mut out = [[0; 2]; 4];
    // (shift, the start cells of the lines that use the bottom row)
    for (shift, bottom_starts) in [
        (1, geo.bottom),
        (h + 1, geo.bottom),
        (h + 2, geo.bottom),
        (h, geo.bottom << 3),
    ] {
        // Bit i: the cells i, i+shift, i+2·shift, i+3·shift are all free.
        let open = free & (free >> shift) & (free >> (2 * shift)) & (free >> (3 * shift));
        if open == 0 {
            continue;
        }
        let (a, b, c, d) = (own, own >> shift, own >> (2 * shift), own >> (3 * shift));
        // A bit-parallel count of our pieces in each line: ones, twos, fours.
        let (s1, c1) = (a ^ b, a & b);
        let (s2, c2) = (c ^ d, c & d);
        let ones = s1 ^ s2;
        let carry = s1 & s2;
        let twos = c1 ^ c2 ^ carry;
        let fours = (c1 & c2) | ((c1 ^ c2) & carry);
        let counts = [
            !ones & !twos & !fours,
            ones & !twos & !fours,
            !ones & twos & !fours,
            ones & twos & !fours,
        ];
        for k in 0..4 {
            let lines = counts[k] & open;
            out[k][0] += (lines & !bottom_starts).count_ones() as i32;
            out[k][1] += (lines & bottom_starts).count_ones() as i32;
        }
    }
    out
}

/// Lines of four free of `opp`, weighted by the pieces of `own` they hold; lines
/// through the bottom row count `bottom_quarters` quarters.
fn lines(s: &Linetris, own: u128, opp: u128, bottom_quarters: i32) -> i32 {
    let counts = line_counts(s, own, opp);
    let total: i32 = (1..4)
        .map(|k| LINE_WEIGHTS[k] * (4 * counts[k][0] + bottom_quarters * counts[k][1]))
        .sum();
    total / 4
}

/// The worth of `player`'s threats that are not playable yet.
fn threats(s: &Linetris, player: Player, mine: u128, theirs: u128, forced: u128) -> i32 {
    let geo = s.geometry();
    let mask = s.occupied();
    let playable = geo.playable(mask);
    let mut total = 0;
    let mut cells = mine & !playable;
    // Our threat directly above a cell we must block now is no threat.
    cells &= !(forced << 1);
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        let index = cell.trailing_zeros();
        let row = index % (geo.rows + 1);
        let below = cell >> 1;
        let mut worth = 15;
        if theirs & below != 0 {
            // The opponent's threat is claimed first.
            total += 3;
            continue;
        }
        if mine & below != 0 {
            // Two stacked threats: whoever fills the column up to the lower one loses
            // it to us.
            worth += 60;
        }
        let good_parity = match player {
            Player::P1 => row.is_multiple_of(2),
            Player::P2 => !row.is_multiple_of(2),
        };
        if good_parity {
            worth += 35;
        }
        total += worth;
    }
    total
}

/// Move ordering: wins, then blocks, then the threats a move makes, centre first;
/// moves right under an opponent's winning cell last.
pub fn order_hint(s: &Linetris, mv: Move) -> i32 {
    let geo = s.geometry();
    let us = s.side_to_move();
    let own = s.pieces(us);
    let opp = s.pieces(us.other());
    let mask = own | opp;
    let col = u32::from(mv.0);
    let cell = geo.drop_cell(mask, col);
    if cell == 0 {
        return i32::MIN / 2;
    }
    if geo.has_four(own | cell) {
        return 100_000;
    }
    let centre = geo.cols as i32 - (2 * col as i32 - (geo.cols as i32 - 1)).abs();
    let mut hint = centre;
    if geo.has_four(opp | cell) {
        hint += 50_000;
    }
    let above = (cell << 1) & geo.board;
    if above != 0 && geo.has_four(opp | above) {
        hint -= 20_000;
    }
    hint += 10 * geo.winning_cells(own | cell, mask | cell).count_ones() as i32;
    hint
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::linetris::Config;
    use crate::search::{AlphaBeta, NoOracle, Score, SearchLimits};

    /// Plays `games` random games from the start under each of `configs` (one generator
    /// seeded `seed` for them all), showing `visit` each position before its move, with
    /// its legal moves.
    fn random_games(
        configs: &[Config],
        games: usize,
        seed: u64,
        mut visit: impl FnMut(&Linetris, &[Move]),
    ) {
        let mut rng = crate::rng::Xorshift::new(seed);
        for config in configs {
            for _ in 0..games {
                let mut s = Linetris::empty(config);
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    visit(&s, &moves);
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
    }

    fn fen(text: &str, row_clear: bool) -> Linetris {
        let config = Config {
            row_clear,
            ..Config::default()
        };
        Linetris::from_fen(&config, text).unwrap()
    }

    #[test]
    fn immediate_wins_and_losses() {
        // x to move with three in the bottom row: wins next move.
        assert_eq!(evaluate(&fen("7/7/7/7/ooo4/xxx4 x 6", false)), WIN_NEXT);
        // o to move facing two open ends of x's three: lost.
        assert_eq!(evaluate(&fen("7/7/7/7/7/1xxx1oo o 5", false)), LOST);
        // The empty board is even.
        assert_eq!(evaluate(&fen("7/7/7/7/7/7 x 0", false)), 0);
    }

    #[test]
    fn the_centre_and_good_threats_count() {
        let centre = evaluate(&fen("7/7/7/7/7/3x3 o 1", false));
        let edge = evaluate(&fen("7/7/7/7/7/x6 o 1", false));
        // Seen by o: x's centre piece is worse for o than x's edge piece.
        assert!(centre < edge, "{centre} {edge}");
        // Order: the winning move first, the block second.
        let s = fen("7/7/7/7/ooo4/xxx4 x 6", false);
        assert!(order_hint(&s, Move(3)) > order_hint(&s, Move(2)));
        let s = fen("7/7/7/7/xxx4/ooo4 x 6", false);
        assert!(order_hint(&s, Move(3)) > order_hint(&s, Move(4)));
    }

    /// Whether the side to move of `s` can win at once.
    fn wins_at_once(s: &Linetris) -> bool {
        let mut moves = Vec::new();
        s.generate_moves(&mut moves);
        moves.iter().any(|&mv| {
            let mut child = *s;
            child.play(mv);
            child.outcome() == Some(crate::game::Outcome::Win(s.side_to_move()))
        })
    }

    #[test]
    fn wins_now_and_forced_replies_agree_with_play() {
        // Random games on both rule sets and two sizes: the win found is a win, none
        // found means none exists, and every move left out of the forced replies lets
        // the opponent win at once.
        let mut eval = LinetrisEval::default();
        let mut checked = 0;
        let configs = [
            (6, 7, true, 0),
            (6, 7, false, 0),
            (5, 5, true, 30),
            (4, 6, true, 0),
        ]
        .map(|(rows, cols, row_clear, max_plies)| Config {
            rows,
            cols,
            row_clear,
            max_plies,
        });
        random_games(&configs, 300, 7, |s, moves| {
            match eval.win_now(s) {
                Some(mv) => {
                    let mut child = *s;
                    child.play(mv);
                    assert_eq!(
                        child.outcome(),
                        Some(crate::game::Outcome::Win(s.side_to_move()))
                    );
                }
                None => assert!(!wins_at_once(s), "{}", s.fen()),
            }
            // Forced replies are only asked where no win is at hand.
            let mut forced = Vec::new();
            if eval.win_now(s).is_none() && eval.forced_replies(s, &mut forced) {
                assert!(eval.threatened(s));
                for &mv in moves.iter().filter(|mv| !forced.contains(mv)) {
                    let mut child = *s;
                    child.play(mv);
                    assert!(
                        child.outcome().is_none() && wins_at_once(&child),
                        "{}",
                        s.fen()
                    );
                    checked += 1;
                }
            }
        });
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn features_are_left_out_where_the_score_is_exact_and_mirror() {
        // Random row-clear games: no terms exactly where the lines evaluation scores a
        // win next move or a loss; the mirror image has the same terms and score.
        let old = LinetrisEval {
            fitted: false,
            ..LinetrisEval::default()
        };
        let mut seen = 0;
        random_games(&[Config::default()], 200, 11, |s, _| {
            let exact = matches!(evaluate_with(s, &old), WIN_NEXT | LOST);
            let f = features(s);
            assert_eq!(f.is_none(), exact, "{}", s.fen());
            let geo = *s.geometry();
            let mut mirror = *s;
            mirror.pieces = s.pieces.map(|p| geo.mirror(p));
            assert_eq!(features(&mirror), f, "{}", s.fen());
            assert_eq!(evaluate(&mirror), evaluate(s), "{}", s.fen());
            if let Some(f) = f {
                seen += 1;
                // Every line is counted once per side, whatever it holds.
                assert!(f.iter().all(|&x| x >= 0), "{}", s.fen());
            }
        });
        assert!(seen > 1_000, "{seen}");
    }

    #[test]
    fn lasting_and_stacked_threats_are_counted() {
        // x (to move) threatens column 4 row 3 with three on row 3 (rows 2 and up),
        // above the bottom row, and not playable (column 4 holds one piece).
        let s = fen("7/7/7/xxx4/ooo4/xoxo3 x 10", true);
        let f = features(&s).unwrap();
        assert_eq!(f[28], 1, "{f:?}");
        // o's three on row 2 is a threat at column 4 row 2, playable: forced.
        assert_eq!(f[34], 1, "{f:?}");
    }

    #[test]
    fn a_nearly_full_bottom_row_discounts_its_lines() {
        // x's three on the bottom row with one cell left: with RowClear on the line is
        // about to vanish (unless x plays there and wins, but o is to move: it blocks
        // or fills the row). Compare the lines term alone.
        let s_on = fen("7/7/7/7/7/xxx1ooo o 6", true);
        let s_off = fen("7/7/7/7/7/xxx1ooo o 6", false);
        let on = lines(&s_on, s_on.pieces(Player::P1), s_on.pieces(Player::P2), 1);
        let off = lines(
            &s_off,
            s_off.pieces(Player::P1),
            s_off.pieces(Player::P2),
            4,
        );
        assert!(on < off, "{on} {off}");
    }

    #[test]
    fn safe_moves_agree_with_play() {
        // Random games: a move is unsafe exactly when it does not clear the bottom row
        // and the opponent then wins at once in the same column. Asked, as the search
        // asks `search_on`, where the mover has no win at once.
        let mut eval = LinetrisEval::default();
        let (mut few, mut unsafe_seen) = (0, 0);
        let configs = [(6, 7), (5, 5)].map(|(rows, cols)| Config {
            rows,
            cols,
            ..Config::default()
        });
        random_games(&configs, 300, 23, |s, moves| {
            if eval.win_now(s).is_some() {
                return;
            }
            let safe = moves
                .iter()
                .filter(|&&mv| {
                    let mut child = *s;
                    child.play(mv);
                    let cleared = child.occupied().count_ones() < s.occupied().count_ones();
                    let mut reply = child;
                    cleared
                        || child.outcome().is_some()
                        || child
                            .geometry()
                            .drop_cell(child.occupied(), u32::from(mv.0))
                            == 0
                        || {
                            reply.play(mv);
                            reply.outcome() != Some(crate::game::Outcome::Win(child.side_to_move()))
                        }
                })
                .count() as u32;
            assert_eq!(safe_moves(s), safe, "{}", s.fen());
            assert_eq!(eval.search_on(s), safe <= FEW_SAFE, "{}", s.fen());
            few += usize::from(safe <= FEW_SAFE);
            unsafe_seen += moves.len() - safe as usize;
        });
        assert!(few > 100 && unsafe_seen > 100, "{few} {unsafe_seen}");
        // Connect Four (RowClear off) keeps its leaves.
        let s = fen("7/7/7/7/7/7 x 0", false);
        assert!(!eval.search_on(&s));
    }

    /// The safe-move and zugzwang terms of [`features`] (from index 36) counted
    /// slowly, cell by cell, from the board of `s`.
    fn slow_zugzwang_terms(s: &Linetris) -> [i32; 11] {
        let geo = *s.geometry();
        let mask = s.occupied();
        let us = s.side_to_move();
        let side_pieces = [s.pieces(us), s.pieces(us.other())];
        // Whether a piece of side `k` (0 the mover) on the empty cell wins.
        let wins = |k: usize, col: u32, row: u32| {
            row < geo.rows && mask & geo.cell(col, row) == 0 && {
                geo.has_four(side_pieces[k] | geo.cell(col, row))
            }
        };
        let last_bottom = (0..geo.cols)
            .filter(|&c| mask & geo.cell(c, 0) == 0)
            .count()
            == 1;
        let (mut safe, mut moves, mut free) = ([0, 0], 0, 0);
        // Per side (0 the mover): columns whose lowest poisoned cell lies under its
        // threat only, and under its threat at all.
        let (mut only, mut any) = ([0, 0], [0, 0]);
        for col in 0..geo.cols {
            let Some(height) = (0..geo.rows).find(|&r| mask & geo.cell(col, r) == 0) else {
                continue;
            };
            moves += 1;
            for (k, safe) in safe.iter_mut().enumerate() {
                // Side k plays here: unsafe under the other side's winning cell,
                // unless it is the bottom row's last open cell.
                if !wins(1 - k, col, height + 1) || (height == 0 && last_bottom) {
                    *safe += 1;
                }
            }
            for row in height..geo.rows {
                let under = [wins(0, col, row + 1), wins(1, col, row + 1)];
                if under[0] || under[1] {
                    for k in 0..2 {
                        only[k] += i32::from(under[k] && !under[1 - k]);
                        any[k] += i32::from(under[k]);
                    }
                    break;
                }
                free += 1;
            }
        }
        let mut t = [0; 11];
        t[0] = moves - safe[0];
        t[1] = moves - safe[1];
        t[2] = i32::from(safe[0] == 1);
        t[3] = i32::from(safe[1] == 1);
        if free % 2 == 0 {
            t[4] = 1;
            t[5] = only[0];
            t[6] = any[1];
            t[9] = i32::from(only[0] == 0 && any[1] > 0);
        } else {
            t[7] = only[1];
            t[8] = any[0];
            t[10] = i32::from(only[1] == 0 && any[0] > 0);
        }
        t
    }

    #[test]
    fn safe_move_and_zugzwang_terms_agree_with_a_slow_count() {
        // Random row-clear games on three sizes: the bitboard terms equal a count cell
        // by cell, and every term is met set.
        let mut seen = [0; 11];
        let configs = [(6, 7), (5, 5), (4, 6)].map(|(rows, cols)| Config {
            rows,
            cols,
            ..Config::default()
        });
        random_games(&configs, 300, 31, |s, _| {
            if let Some(f) = features(s) {
                let slow = slow_zugzwang_terms(s);
                assert_eq!(f[36..], slow, "{}", s.fen());
                for (n, x) in seen.iter_mut().zip(slow) {
                    *n += usize::from(x != 0);
                }
            }
        });
        assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
    }

    /// The default evaluation without [`Evaluator::search_on`].
    #[derive(Clone, Debug)]
    struct NoSearchOn(LinetrisEval);

    impl Evaluator<Linetris> for NoSearchOn {
        fn evaluate(&mut self, state: &Linetris) -> i32 {
            self.0.evaluate(state)
        }
        fn order_hint(&mut self, state: &Linetris, mv: Move) -> i32 {
            self.0.order_hint(state, mv)
        }
        fn is_win_now(&self, score: i32) -> bool {
            self.0.is_win_now(score)
        }
        fn win_now(&mut self, state: &Linetris) -> Option<Move> {
            self.0.win_now(state)
        }
        fn forced_replies(&mut self, state: &Linetris, moves: &mut Vec<Move>) -> bool {
            self.0.forced_replies(state, moves)
        }
        fn threatened(&mut self, state: &Linetris) -> bool {
            self.0.threatened(state)
        }
    }

    fn search_depth<E: Evaluator<Linetris>>(eval: E, s: &Linetris, depth: u32) -> Score {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let mut searcher = AlphaBeta::new(4, eval, Arc::new(NoOracle));
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let (stop, time_up) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        searcher
            .search(s, &[s.hash()], limits, stop, time_up, &mut |_| {})
            .score
    }

    #[test]
    fn a_leaf_short_of_safe_moves_is_searched_on() {
        // From a game lost to the two-ply player (seed 51, game 48): x to move wins in
        // 13 plies by running o out of safe moves. At depth 10 the search finds it
        // only when such leaves are searched on (without: a small score; depth 12
        // finds it either way).
        let s = fen("1x3o1/1ox1oo1/1xx1ox1/1oo1xxx/1xx1ooo/1ox1oxx x 32", true);
        assert_eq!(
            search_depth(LinetrisEval::default(), &s, 10),
            Score::Mate(13)
        );
        assert!(matches!(
            search_depth(NoSearchOn(LinetrisEval::default()), &s, 10),
            Score::Cp(_)
        ));
        assert_eq!(
            search_depth(NoSearchOn(LinetrisEval::default()), &s, 12),
            Score::Mate(13)
        );
    }
}
