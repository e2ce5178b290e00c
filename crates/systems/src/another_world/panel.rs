//! Another World's table panel ([`TableRules::table_sheet`](crate::table_rules::TableRules::table_sheet)):
//! what the whole table is doing, as a typed view every surface renders. The combat in
//! progress (AW-3: round, process, whose main process it is, who acts next by initiative,
//! who has acted, engagements) and the AF check in progress or last finished (AW-7: goal,
//! difficulty after declarations, running total, round, party and who has rolled, the
//! thresholds, and the exact chance of success over the rounds left).
//!
//! Everything here is also in the log for every member (combat and AF events are
//! public); event keys (AW-6), the only holder-only part, are not shown here.

use super::af::{AfCheck, Status};
use super::af_odds::{AfRoller, af_odds_mid_round, percent};
use super::combat::{Combat, Process};
use super::rules::State;
use crate::table_rules::TableView;
use crate::view::{Field, Section, Value};
use taku_dice::Text;

/// The panel's sections: combat first, then the AF check.
pub fn sections(table: &dyn TableView, state: &State) -> Vec<Section> {
    let mut out = Vec::new();
    if let Some(c) = &state.combat {
        // The current values (HP, 【行動値】), as initiative reads them.
        out.push(combat(table, state, &c.refreshed(table)));
    }
    if let Some(a) = &state.af {
        out.push(af(table, a));
    }
    out
}

fn row(ja: &str, en: &str, value: Value) -> Field {
    Field::derived(Text::new(ja, en), value)
}

fn combat(table: &dyn TableView, state: &State, c: &Combat) -> Section {
    let mut fields = vec![row("ラウンド", "round", Value::Number(i64::from(c.round)))];
    let process = match &c.process {
        Process::Setup => Text::new("セットアッププロセス", "setup process"),
        Process::Main { actor, minor } => Text::new(
            format!(
                "メインプロセス: {actor}{}",
                if *minor { "（マイナー済）" } else { "" }
            ),
            format!(
                "main process: {actor}{}",
                if *minor { " (minor action taken)" } else { "" }
            ),
        ),
        Process::Cleanup => Text::new("クリンナッププロセス", "cleanup process"),
    };
    fields.push(row("プロセス", "process", Value::Text(process)));
    if let Some((next, why)) = c.next_actor() {
        let why_ja = why.map(|w| format!("（{w}）")).unwrap_or_default();
        let why_en = why.map(|w| format!(" ({w})")).unwrap_or_default();
        fields.push(row(
            "次の行動",
            "acts next",
            Value::Text(Text::new(
                format!("{}{why_ja}", next.name),
                format!("{}{why_en}", next.name),
            )),
        ));
    }
    // AW-3: by 【行動値】, highest first; who has acted this round.
    let mut order: Vec<_> = c.combatants.iter().collect();
    order.sort_by_key(|x| std::cmp::Reverse(x.action));
    fields.push(row(
        "行動値順",
        "by action value",
        Value::List(
            order
                .iter()
                .map(|x| {
                    let side = if x.pc { "PC" } else { "NPC" };
                    let (done_ja, done_en) = match (x.down, x.acted) {
                        (true, _) => ("・戦闘不能", ", incapacitated"),
                        (false, true) => ("・行動済", ", acted"),
                        (false, false) => ("", ""),
                    };
                    // An enemy's 【行動値】 is the GM's until identified (AW-3).
                    if super::rules::hidden_from_actor(table, state, &x.name).is_some() {
                        return Text::new(
                            format!("{}（{side}・未識別{done_ja}）", x.name),
                            format!("{} ({side}, not identified{done_en})", x.name),
                        );
                    }
                    Text::new(
                        format!("{} {}（{side}{done_ja}）", x.name, x.action),
                        format!("{} {} ({side}{done_en})", x.name, x.action),
                    )
                })
                .collect(),
        ),
    ));
    if !c.engagements.is_empty() {
        fields.push(row(
            "エンゲージ",
            "engagements",
            Value::List(
                c.engagements
                    .iter()
                    .map(|(a, b)| Text::verbatim(format!("{a} ⇔ {b}")))
                    .collect(),
            ),
        ));
    }
    Section {
        title: Text::new("戦闘", "Combat"),
        fields,
    }
}

fn af(table: &dyn TableView, a: &AfCheck) -> Section {
    let status = match &a.status {
        Status::Running => Text::new("進行中", "running"),
        Status::FumblePending { character, .. } => Text::new(
            format!("{character}がファンブル（GMの打ち消し待ち）"),
            format!("{character} fumbled (waiting for the GM's cancel)"),
        ),
        Status::Succeeded => Text::new("成功", "succeeded"),
        Status::Failed => Text::new("失敗", "failed"),
        Status::Aborted => Text::new("中止", "called off"),
    };
    let mut fields = vec![
        row(
            "目的",
            "goal",
            Value::Text(Text::verbatim(a.goal.replace('_', " "))),
        ),
        row("状態", "status", Value::Text(status)),
        row(
            "能力値",
            "ability",
            Value::Text(Text::verbatim(format!("【{}】", a.ability))),
        ),
        row(
            "達成値",
            "total",
            Value::Resource {
                current: a.total,
                max: a.difficulty(),
            },
        ),
        row(
            "ラウンド",
            "round",
            Value::Text(Text::verbatim(format!(
                "{}/{}",
                a.round.min(a.rounds),
                a.rounds
            ))),
        ),
        row(
            "参加PC（行動値順）",
            "party (by action value)",
            Value::List(
                a.party
                    .iter()
                    .map(|pc| {
                        if a.rolled.contains(pc) {
                            Text::new(
                                format!("{pc}（このラウンド判定済）"),
                                format!("{pc} (rolled this round)"),
                            )
                        } else {
                            Text::verbatim(pc.clone())
                        }
                    })
                    .collect(),
            ),
        ),
    ];
    if !a.thresholds.is_empty() {
        fields.push(row(
            "しきい値",
            "thresholds",
            Value::List(
                a.thresholds
                    .iter()
                    .map(|t| {
                        let text = t.text.replace('_', " ");
                        let (ja, en) = if t.fired {
                            ("（発生済）", " (fired)")
                        } else {
                            ("", "")
                        };
                        Text::new(
                            format!("{}: {text}{ja}", t.at),
                            format!("{}: {text}{en}", t.at),
                        )
                    })
                    .collect(),
            ),
        ));
    }
    // AW-7: the exact chance over the rounds left, while the check runs.
    if a.status == Status::Running
        && let Some(p) = chance(table, a)
    {
        fields.push(row(
            "成功確率",
            "chance of success",
            Value::Text(Text::verbatim(p)),
        ));
    }
    Section {
        title: Text::new("AF判定", "AF check"),
        fields,
    }
}

/// The most rolls (PCs × rounds left) whose odds the panel computes.
const MAX_PANEL_ROLLS: usize = 48;

/// The exact chance the party reaches the difficulty from the running total within the
/// rolls left (AW-7; [`af_odds_mid_round`], the computation the log's odds line uses):
/// during a round, the PCs who have not rolled in it yet roll first, in action-value
/// order, then every round after it (issue 17: the chance shown mid-round is that of the
/// rolls actually left, not nothing). Each PC rolls its best usable ability, as the log's
/// odds line has it. `None` once the rounds are spent, when a party member's ability is
/// not a number, or when the computation is too large for a panel drawn on every update.
fn chance(table: &dyn TableView, a: &AfCheck) -> Option<String> {
    if a.round > a.rounds {
        return None;
    }
    let party = super::af::rollers(table, a).ok()?;
    let still: Vec<AfRoller> = a
        .party
        .iter()
        .zip(&party)
        .filter(|(pc, _)| !a.rolled.contains(*pc))
        .map(|(_, roller)| *roller)
        .collect();
    let rounds_after = a.rounds - a.round;
    // The panel is drawn again on every update for every member: only checks cheap to
    // compute (a few milliseconds at most) get their odds here; the log's odds line
    // covers the rest.
    let rolls = still
        .len()
        .saturating_add(party.len().saturating_mul(rounds_after as usize));
    if rolls > MAX_PANEL_ROLLS {
        return None;
    }
    let odds = af_odds_mid_round(&still, &party, a.difficulty(), rounds_after, a.total).ok()?;
    Some(percent(&odds.success))
}
