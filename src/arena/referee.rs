//! The referee: plays one game between two engine processes, keeping the clocks and
//! judging every move with our own rules ([`Record`]); the engines are never trusted
//! for legality or the result.
//!
//! Per game each engine gets `uginewgame` and `isready`; per move the side to move
//! gets `position … moves …` and `go …` and must answer `bestmove <move>` (exactly two
//! tokens). Whatever goes wrong loses the game for the engine at fault, with a
//! [`Reason`]:
//!
//! - `illegal`: a well-formed move that is not legal here (also `0000` while the game
//!   goes on); `garbage`: not a move in the game's notation; `malformed`: a `bestmove`
//!   line without a move or with extra tokens;
//! - `time`: its clock fell, or it exceeded a fixed `movetime` (see `request_move`
//!   for the exact rule, which is cutegames' with an optional grace margin);
//! - `timeout`: no answer within the per-move timeout (beyond movetime, if any) when
//!   it has no clock; `crash`: its output ended or its input closed.
//!
//! An engine that timed out or crashed is killed; [`EngineSlot`] starts it again
//! before its next game. When a flag falls before the answer, the referee sends
//! `stop` and waits up to the timeout for the `bestmove` (the engine then stays in
//! step); an engine that does not answer that either is killed too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::engine_process::{EngineError, EngineProcess};
use super::openings::Opening;
use super::{EngineSpec, Limits};
use crate::game::{Game, MoveError, Outcome, Player, Record, Scoring};

/// The least time given to an engine to start up (`ugiok`) and answer `isready`,
/// whatever `--timeout` says: a loaded machine can take seconds to start a process.
pub const MIN_SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why an engine could not be made ready.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// It answered a `setoption` with `info string error: …` (`error`, the whole line).
    Rejected {
        option: String,
        value: String,
        error: String,
    },
    /// It did not start, or did not complete the handshake.
    Failed(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Rejected {
                option,
                value,
                error,
            } => write!(f, "rejected option {option}={value}: '{error}'"),
            StartError::Failed(why) => write!(f, "{why}"),
        }
    }
}

impl From<String> for StartError {
    fn from(why: String) -> StartError {
        StartError::Failed(why)
    }
}

/// Sends `isready` and waits for `readyok`: the `info string error` lines read meanwhile.
fn ready(process: &mut EngineProcess, deadline: Instant) -> Result<Vec<String>, String> {
    process.send("isready").map_err(|e| e.to_string())?;
    let mut errors = Vec::new();
    process
        .wait_for("readyok", deadline, |line| {
            if line.starts_with("info string error") {
                errors.push(line.trim().to_string());
            }
            line.trim() == "readyok"
        })
        .map_err(|e| e.to_string())?;
    Ok(errors)
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// By the rules of the game (a win, a draw, no moves, repetition).
    Rules,
    /// The referee's ply limit: a draw.
    MaxPlies,
    Illegal,
    Garbage,
    Malformed,
    Time,
    Timeout,
    Crash,
    /// `--adjudicate`: the referee knew the position's exact value.
    Adjudicated,
}

impl Reason {
    pub const ALL: [Reason; 9] = [
        Reason::Rules,
        Reason::MaxPlies,
        Reason::Illegal,
        Reason::Garbage,
        Reason::Malformed,
        Reason::Time,
        Reason::Timeout,
        Reason::Crash,
        Reason::Adjudicated,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Rules => "rules",
            Reason::MaxPlies => "max plies",
            Reason::Illegal => "illegal",
            Reason::Garbage => "garbage",
            Reason::Malformed => "malformed",
            Reason::Time => "time",
            Reason::Timeout => "timeout",
            Reason::Crash => "crash",
            Reason::Adjudicated => "adjudicated",
        }
    }

    /// Whether the game was lost by an engine's fault rather than played out.
    pub fn is_forfeit(self) -> bool {
        !matches!(self, Reason::Rules | Reason::MaxPlies | Reason::Adjudicated)
    }
}

/// What the referee needs besides the engines.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    /// The game's protocol name.
    pub game: &'static str,
    /// Game options sent to every engine, `(name, value)`.
    pub game_options: Vec<(String, String)>,
    /// How long an engine may take beyond its time to answer (at least
    /// [`MIN_SETUP_TIMEOUT`] for start-up and `isready`).
    pub timeout: Duration,
    /// How far past its clock or movetime an answer still counts.
    pub grace: Duration,
    /// Plies the engines may play before the game is adjudicated a draw (0: no limit).
    pub max_plies: u32,
    /// Where each engine process's traffic goes (`--log-dir`), if anywhere.
    pub log_dir: Option<std::path::PathBuf>,
    /// End a game whose exact value the referee knows ([`super::adjudicate`]).
    pub adjudicate: bool,
}

/// Numbers the traffic logs of the processes of one run (several per engine: one per
/// worker, and one per restart).
static LOG_NUMBER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The first word of a line an engine may print before `ugiok`.
fn is_handshake_line(line: &str) -> bool {
    matches!(
        line.split_whitespace().next(),
        None | Some(
            "id" | "option" | "info" | "ugiok" | "uciok" | "copyprotection" | "registration"
        )
    )
}

/// One engine seat of a worker: the engine's spec and its process, started on demand.
pub struct EngineSlot {
    pub index: usize,
    pub spec: EngineSpec,
    process: Option<EngineProcess>,
    /// How many times the process was started (for the logs).
    pub starts: u32,
}

impl EngineSlot {
    pub fn new(index: usize, spec: EngineSpec) -> EngineSlot {
        EngineSlot {
            index,
            spec,
            process: None,
            starts: 0,
        }
    }

    /// Starts the engine if it is not running: handshake, options, `isready`.
    pub fn ensure_started(&mut self, settings: &RefereeSettings) -> Result<(), StartError> {
        if let Some(process) = self.process.as_mut() {
            if !process.is_dead() {
                return Ok(());
            }
            self.process = None;
        }
        self.starts += 1;
        if self.starts > 1 {
            log::info!("restarting engine {}", self.spec.name);
        }
        let log = settings.log_dir.as_ref().map(|dir| {
            let number = LOG_NUMBER.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            dir.join(format!("{}-{number}.log", self.spec.name))
        });
        let mut process = EngineProcess::spawn_logged(
            &self.spec.name,
            &self.spec.cmd,
            &self.spec.args,
            log.as_deref(),
        )?;
        let deadline = Instant::now() + settings.timeout.max(MIN_SETUP_TIMEOUT);
        process.send("ugi").map_err(|e| e.to_string())?;
        let mut has_game_option = false;
        // A program that is no engine: it echoes `ugi` (`cat`), or prints lines no
        // engine prints before `ugiok`. Told at once, not after the timeout.
        let mut stranger: Option<String> = None;
        let mut strange_lines = 0;
        let handshake = process.wait_for("ugiok", deadline, |line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() >= 3
                && words[0] == "option"
                && words[1] == "name"
                && words[2].eq_ignore_ascii_case("game")
                && words.get(3) == Some(&"type")
            {
                has_game_option = true;
            }
            if line.trim() == "ugi" {
                stranger = Some("it echoed 'ugi' back".to_string());
                return true;
            }
            if !is_handshake_line(line) {
                strange_lines += 1;
                // A banner of a few lines is fine; a stream of anything else is not.
                if strange_lines > 50 {
                    stranger = Some(format!(
                        "it printed {strange_lines} lines that are not UGI, the last '{line}'"
                    ));
                    return true;
                }
            }
            words.first() == Some(&"ugiok")
        });
        if let Some(why) = stranger {
            return Err(StartError::Failed(format!(
                "it is not a UGI engine: {why} instead of answering 'ugi' with 'ugiok'{}",
                process.stderr_note()
            )));
        }
        if let Err(e) = handshake {
            let note = match e {
                EngineError::Timeout(_) => process.stderr_note(),
                // A crash's words already carry the stderr lines.
                EngineError::Crashed(_) => String::new(),
            };
            return Err(StartError::Failed(format!("{e}{note}")));
        }
        let mut options = Vec::new();
        if has_game_option {
            options.push(("Game".to_string(), settings.game.to_string()));
        }
        options.extend(settings.game_options.iter().cloned());
        options.extend(self.spec.options.iter().cloned());
        // Each option is followed by `isready`, so that an error the engine prints
        // (`info string error: …`, SPEC §3) is told apart by the option it rejected.
        for (name, value) in &options {
            process
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|e| e.to_string())?;
            let errors = ready(&mut process, deadline)?;
            if let Some(error) = errors.into_iter().next() {
                return Err(StartError::Rejected {
                    option: name.clone(),
                    value: value.clone(),
                    error,
                });
            }
        }
        if options.is_empty() {
            let errors = ready(&mut process, deadline)?;
            if let Some(error) = errors.first() {
                return Err(StartError::Failed(format!(
                    "it reported an error at start-up: '{error}'"
                )));
            }
        }
        self.process = Some(process);
        Ok(())
    }

    /// Kills the process (it is started again on demand).
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// Quits the process politely.
    pub fn quit(&mut self) {
        if let Some(process) = self.process.take() {
            process.quit(Duration::from_millis(500));
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Engine indices of p1 and p2.
    pub engines: [usize; 2],
    pub opening: String,
    /// The moves the engines played, after the opening.
    pub moves: Vec<String>,
    pub outcome: Outcome,
    pub reason: Reason,
    /// The player at fault for a forfeit.
    pub loser_at_fault: Option<Player>,
    /// What happened, in words (the illegal move, the time used, …).
    pub detail: String,
    pub final_fen: String,
    /// The game's tie-break count at the end, for pair scoring (`None` for a game
    /// scored game by game).
    pub count: Option<u32>,
    pub duration: Duration,
    /// The time charged for each answer to `go`, in order: one for each entry of
    /// `moves`, plus one for a last answer that lost the game without being a move
    /// (late, or malformed).
    pub move_times: Vec<MoveTime>,
}

/// The time one move took, as the referee charged it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// Who moved.
    pub player: Player,
    /// Wall time from writing `go` to reading `bestmove`, truncated to whole ms (for a
    /// flag fall: to the late `bestmove`, or to when the referee gave up on it).
    pub ms: u64,
}

/// A seat's clock, in whole ms as cutegames keeps it: every move is charged its
/// wall time truncated to whole ms.
#[derive(Clone, Copy, Debug)]
struct Clock {
    left_ms: u64,
    inc_ms: u64,
}

/// The `go` line for the side to move.
fn go_line(limits: &Limits, clocks: &[Option<Clock>; 2]) -> String {
    let mut line = String::from("go");
    for (index, clock) in clocks.iter().enumerate() {
        if let Some(clock) = clock {
            line.push_str(&format!(" p{}time {}", index + 1, clock.left_ms));
        }
    }
    for (index, clock) in clocks.iter().enumerate() {
        if let Some(clock) = clock {
            line.push_str(&format!(" p{}inc {}", index + 1, clock.inc_ms));
        }
    }
    if let Some(ms) = limits.movetime {
        line.push_str(&format!(" movetime {ms}"));
    }
    if let Some(depth) = limits.depth {
        line.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        line.push_str(&format!(" nodes {nodes}"));
    }
    line
}

/// How a move request failed.
struct Fault {
    reason: Reason,
    detail: String,
    /// Whether the process must be killed (it hung or is gone).
    kill: bool,
}

/// Plays one game from `opening` between `seats[0]` (p1) and `seats[1]` (p2). Returns
/// `None` if `abort` was raised before the game ended (the game is then discarded).
pub fn play_game<G: Game>(
    config: &G::Config,
    settings: &RefereeSettings,
    opening: &Opening,
    seats: [&mut EngineSlot; 2],
    abort: &AtomicBool,
) -> Option<GameReport> {
    let began = Instant::now();
    let engines = [seats[0].index, seats[1].index];
    let mut move_times: Vec<MoveTime> = Vec::new();
    let report = |record: &Record<G>,
                  move_times: &[MoveTime],
                  moves: Vec<String>,
                  outcome: Outcome,
                  reason: Reason,
                  loser_at_fault: Option<Player>,
                  detail: String| GameReport {
        engines,
        opening: opening.describe(),
        moves,
        outcome,
        reason,
        loser_at_fault,
        detail,
        final_fen: record.state().fen(),
        count: match G::SCORING {
            Scoring::Pairs(_) => Some(record.state().tiebreak_count()),
            Scoring::Games => None,
        },
        duration: began.elapsed(),
        move_times: move_times.to_vec(),
    };
    let mut record = match opening.record::<G>(config) {
        Ok(record) => record,
        Err(why) => {
            // Openings are checked when read; this is a logic error, not an engine's.
            log::error!("opening '{}' cannot be played: {why}", opening.describe());
            return None;
        }
    };

    // Both engines ready for a new game.
    for player in [Player::P1, Player::P2] {
        let seat = &mut *seats[player.index()];
        let ready = seat
            .ensure_started(settings)
            .map_err(|e| e.to_string())
            .and_then(|()| new_game(seat, settings));
        if let Err(why) = ready {
            seat.kill();
            let reason = if why.contains("timed out") {
                Reason::Timeout
            } else {
                Reason::Crash
            };
            let detail = format!("{} at the start of the game: {why}", seat.spec.name);
            return Some(report(
                &record,
                &move_times,
                Vec::new(),
                Outcome::Win(player.other()),
                reason,
                Some(player),
                detail,
            ));
        }
    }

    let clock_of = |seat: &EngineSlot| {
        seat.spec.limits.tc.map(|tc| Clock {
            left_ms: tc.base_ms,
            inc_ms: tc.inc_ms,
        })
    };
    let mut clocks = [clock_of(seats[0]), clock_of(seats[1])];
    let mut moves: Vec<String> = Vec::new();
    loop {
        if let Some(outcome) = record.outcome() {
            return Some(report(
                &record,
                &move_times,
                moves,
                outcome,
                Reason::Rules,
                None,
                String::new(),
            ));
        }
        if settings.max_plies > 0 && moves.len() >= settings.max_plies as usize {
            let detail = format!("{} plies played", moves.len());
            return Some(report(
                &record,
                &move_times,
                moves,
                Outcome::Draw,
                Reason::MaxPlies,
                None,
                detail,
            ));
        }
        if abort.load(Ordering::Relaxed) {
            return None;
        }
        if settings.adjudicate
            && let Some(verdict) = super::adjudicate::verdict(
                settings.game,
                &settings.game_options,
                &opening.position_command(&moves),
            )
        {
            let outcome = verdict.outcome;
            let detail = verdict.detail;
            return Some(report(
                &record,
                &move_times,
                moves,
                outcome,
                Reason::Adjudicated,
                None,
                detail,
            ));
        }
        let side = record.state().side_to_move();
        let seat = &mut *seats[side.index()];
        let limits = seat.spec.limits;
        let position = opening.position_command(&moves);
        let go = go_line(&limits, &clocks);
        let clock = clocks[side.index()];
        let (answer, used_ms) = request_move(seat, &position, &go, &limits, clock, settings);
        if let Some(ms) = used_ms {
            move_times.push(MoveTime { player: side, ms });
        }
        match answer {
            Ok(text) => {
                if let (Some(clock), Some(ms)) = (clocks[side.index()].as_mut(), used_ms) {
                    // Not flagged, so the clock had more than `ms` left (or the grace).
                    clock.left_ms = clock.left_ms.saturating_sub(ms) + clock.inc_ms;
                }
                match judge_move(&mut record, &text) {
                    Ok(canonical) => moves.push(canonical),
                    Err((reason, detail)) => {
                        record.forfeit_by_side_to_move();
                        let outcome = record.outcome().unwrap_or(Outcome::Win(side.other()));
                        let detail = format!("{}: {detail}", seat.spec.name);
                        moves.push(text);
                        return Some(report(
                            &record,
                            &move_times,
                            moves,
                            outcome,
                            reason,
                            Some(side),
                            detail,
                        ));
                    }
                }
            }
            Err(fault) => {
                if fault.kill {
                    seat.kill();
                }
                record.forfeit_by_side_to_move();
                let outcome = record.outcome().unwrap_or(Outcome::Win(side.other()));
                let detail = format!("{}: {}", seat.spec.name, fault.detail);
                return Some(report(
                    &record,
                    &move_times,
                    moves,
                    outcome,
                    fault.reason,
                    Some(side),
                    detail,
                ));
            }
        }
    }
}

fn new_game(seat: &mut EngineSlot, settings: &RefereeSettings) -> Result<(), String> {
    let process = seat
        .process
        .as_mut()
        .ok_or_else(|| "engine not running".to_string())?;
    process.drain();
    process.send("uginewgame").map_err(|e| e.to_string())?;
    process.send("isready").map_err(|e| e.to_string())?;
    process
        .wait_for(
            "readyok",
            Instant::now() + settings.timeout.max(MIN_SETUP_TIMEOUT),
            |line| line.trim() == "readyok",
        )
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// The first whole-ms time charge that loses on time, if the move has a time limit.
///
/// As cutegames (`src/match/play.cpp`): the move is charged its wall time truncated to
/// whole ms; with a clock the flag falls when that leaves **0 ms or less** (`time left
/// − used ≤ 0`), so a move of `used` ms with `left` ms on the clock loses when
/// `used ≥ left`; with a `movetime` it loses when `used > movetime`. `grace` is added
/// to both limits (cutegames has none for clocks; for movetime its `timeoutbuffer`,
/// 10 ms by default). With both, the earlier flag counts.
fn flag_at_ms(clock: Option<Clock>, movetime: Option<u64>, grace: Duration) -> Option<u64> {
    let grace = grace.as_millis() as u64;
    let by_clock = clock.map(|c| c.left_ms + grace);
    let by_movetime = movetime.map(|ms| ms + grace + 1);
    match (by_clock, by_movetime) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// What a time loss says: how long the move took against what it was allowed.
fn allowance(clock: Option<Clock>, movetime: Option<u64>, grace: Duration) -> String {
    let mut parts = Vec::new();
    if let Some(clock) = clock {
        parts.push(format!("{} ms left", clock.left_ms));
    }
    if let Some(ms) = movetime {
        parts.push(format!("movetime {ms} ms"));
    }
    format!("{}, {} ms grace", parts.join(", "), grace.as_millis())
}

/// Whole ms from `from` to `to` (0 if `to` is earlier), truncated as cutegames does.
fn whole_ms(from: Instant, to: Instant) -> u64 {
    to.saturating_duration_since(from).as_millis() as u64
}

/// Sends the position and `go`, and waits for the `bestmove`. Returns the move text or
/// the fault, and the time charged for the answer in whole ms when there was one to
/// time (see [`flag_at_ms`] for when it loses on time).
///
/// The time runs from just before `go` is written (as cutegames starts its clock
/// before it sends `go`) to the moment the reader thread read the `bestmove` line, so
/// neither the referee's own scheduling after the line arrived nor the `position`
/// line is charged.
fn request_move(
    seat: &mut EngineSlot,
    position: &str,
    go: &str,
    limits: &Limits,
    clock: Option<Clock>,
    settings: &RefereeSettings,
) -> (Result<String, Fault>, Option<u64>) {
    let crash = |e: EngineError| Fault {
        reason: Reason::Crash,
        detail: e.to_string(),
        kill: true,
    };
    let Some(process) = seat.process.as_mut() else {
        let fault = Fault {
            reason: Reason::Crash,
            detail: "engine not running".to_string(),
            kill: true,
        };
        return (Err(fault), None);
    };
    process.drain();
    if let Err(e) = process.send(position) {
        return (Err(crash(e)), None);
    }
    let sent = Instant::now();
    if let Err(e) = process.send(go) {
        return (Err(crash(e)), None);
    }
    let flag_at = flag_at_ms(clock, limits.movetime, settings.grace);
    // With a time limit the flag falls at `flag_at` ms; without, only the timeout
    // bounds the wait.
    let deadline = match flag_at {
        Some(ms) => sent + Duration::from_millis(ms),
        None => sent + settings.timeout,
    };
    let is_bestmove = |line: &str| line.split_whitespace().next() == Some("bestmove");
    let (line, at) = match process.wait_for("bestmove", deadline, is_bestmove) {
        Ok(found) => found,
        Err(EngineError::Timeout(_)) => {
            let Some(flag_at) = flag_at else {
                let fault = Fault {
                    reason: Reason::Timeout,
                    detail: format!("no bestmove within {} ms", settings.timeout.as_millis()),
                    kill: true,
                };
                return (Err(fault), None);
            };
            // The flag fell. Ask for the move anyway, so that an engine that is only
            // late stays in step; one that does not answer within the timeout hangs.
            let answer = match process.send("stop") {
                Ok(()) => process
                    .wait_for("bestmove", Instant::now() + settings.timeout, is_bestmove)
                    .ok(),
                Err(_) => None,
            };
            match answer {
                // Read just before the deadline, but after the wait gave up: in time
                // after all (the `stop` then finds the engine idle, which it ignores).
                Some((line, at)) if whole_ms(sent, at) < flag_at => (line, at),
                _ => {
                    let used = whole_ms(sent, answer.as_ref().map_or_else(Instant::now, |a| a.1));
                    let fault = Fault {
                        reason: Reason::Time,
                        detail: format!(
                            "no bestmove within {} ms ({}){}",
                            flag_at,
                            allowance(clock, limits.movetime, settings.grace),
                            match answer {
                                Some(_) => format!("; its bestmove came after {used} ms"),
                                None => "; no answer to stop either".to_string(),
                            }
                        ),
                        kill: answer.is_none(),
                    };
                    return (Err(fault), Some(used));
                }
            }
        }
        Err(error) => return (Err(crash(error)), None),
    };
    let used = whole_ms(sent, at);
    if flag_at.is_some_and(|flag_at| used >= flag_at) {
        let fault = Fault {
            reason: Reason::Time,
            detail: format!(
                "took {used} ms ({})",
                allowance(clock, limits.movetime, settings.grace)
            ),
            kill: false,
        };
        return (Err(fault), Some(used));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let answer = match words.as_slice() {
        ["bestmove", mv] => Ok(mv.to_string()),
        ["bestmove"] => Err(Fault {
            reason: Reason::Malformed,
            detail: "'bestmove' without a move".to_string(),
            kill: false,
        }),
        _ => Err(Fault {
            reason: Reason::Malformed,
            detail: format!("extra tokens after the move: '{line}'"),
            kill: false,
        }),
    };
    (answer, Some(used))
}

/// Plays `text` if it is legal: its canonical form, or the loss reason and detail.
fn judge_move<G: Game>(record: &mut Record<G>, text: &str) -> Result<String, (Reason, String)> {
    if text == "0000" {
        return Err((
            Reason::Illegal,
            "null move 0000 while the game goes on".to_string(),
        ));
    }
    let before = record.state().clone();
    match record.play_text(text) {
        Ok(mv) => Ok(before.format_move(mv)),
        Err(error @ MoveError::Syntax(_)) => Err((Reason::Garbage, error.to_string())),
        Err(error) => Err((Reason::Illegal, error.to_string())),
    }
}

#[cfg(test)]
// Neutreeko's config is `()`; the tests keep the shape every game needs.
#[allow(clippy::let_unit_value)]
mod tests {
    use super::*;
    use crate::arena::TimeControl;
    use crate::game::default_config;
    use crate::games::neutreeko::Neutreeko;

    #[test]
    fn go_lines_carry_both_clocks_and_the_limits() {
        let clocks = [
            Some(Clock {
                left_ms: 900,
                inc_ms: 10,
            }),
            Some(Clock {
                left_ms: 1000,
                inc_ms: 10,
            }),
        ];
        let limits = Limits {
            tc: Some(TimeControl {
                base_ms: 1000,
                inc_ms: 10,
            }),
            depth: Some(4),
            ..Limits::default()
        };
        assert_eq!(
            go_line(&limits, &clocks),
            "go p1time 900 p2time 1000 p1inc 10 p2inc 10 depth 4"
        );
        let fixed = Limits {
            movetime: Some(50),
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(go_line(&fixed, &[None, None]), "go movetime 50 nodes 1000");
    }

    #[test]
    fn the_flag_falls_as_in_cutegames() {
        let clock = |left_ms| {
            Some(Clock {
                left_ms,
                inc_ms: 10,
            })
        };
        let none = Duration::ZERO;
        // A clock: the flag falls at 0 ms left, so 99 ms of 100 pass and 100 lose.
        assert_eq!(flag_at_ms(clock(100), None, none), Some(100));
        // A movetime: only more than the movetime loses.
        assert_eq!(flag_at_ms(None, Some(30), none), Some(31));
        // Both: the earlier flag; the grace is added to each.
        assert_eq!(flag_at_ms(clock(20), Some(30), none), Some(20));
        assert_eq!(
            flag_at_ms(clock(100), Some(30), Duration::from_millis(5)),
            Some(36)
        );
        assert_eq!(flag_at_ms(None, None, Duration::from_millis(5)), None);
        assert_eq!(
            allowance(clock(100), Some(30), none),
            "100 ms left, movetime 30 ms, 0 ms grace"
        );
        // Times are whole ms, truncated: 1.999 ms is charged as 1.
        let t = Instant::now();
        assert_eq!(whole_ms(t, t + Duration::from_micros(1999)), 1);
        assert_eq!(whole_ms(t + Duration::from_millis(1), t), 0);
    }

    #[test]
    fn moves_are_judged_by_our_rules() {
        let config = default_config::<Neutreeko>();
        let mut record = Record::new(Neutreeko::start(&config));
        assert_eq!(judge_move(&mut record, "b1b4"), Ok("b1b4".to_string()));
        assert_eq!(
            judge_move(&mut record, "a1a1").unwrap_err().0,
            Reason::Illegal
        );
        assert_eq!(
            judge_move(&mut record, "hello").unwrap_err().0,
            Reason::Garbage
        );
        assert_eq!(
            judge_move(&mut record, "0000").unwrap_err().0,
            Reason::Illegal
        );
        assert_eq!(record.moves().len(), 1);
    }
}
