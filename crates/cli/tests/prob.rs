//! `taku prob` from the outside: the report, JSON, the SVG plot, success per target, and
//! clear refusals.

use std::process::{Command, Output};

fn taku(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taku"))
        .args(args)
        .output()
        .expect("taku runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_report_gives_exact_fractions_moments_and_the_distribution() {
    let o = taku(&["prob", "2D6>=7"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("P(success)           7/12 =  58.33333%"),
        "{out}"
    );
    assert!(
        out.contains("P(failure)           5/12 =  41.66667%"),
        "{out}"
    );
    assert!(out.contains("mean 7.0000  sd 2.4152"), "{out}");
    assert!(
        out.contains(
            "     7            1/6 =  16.66667%  ████████████████████████████████████████"
        ),
        "{out}"
    );
    // A system's check: SRS criticals and fumbles (a 12 and a 2 on the dice).
    let out = stdout(&taku(&["prob", "--system", "SRS", "2D6+2>=10"]));
    assert!(out.contains("P(critical)          1/36"), "{out}");
    assert!(out.contains("P(fumble)            1/36"), "{out}");
}

#[test]
fn json_carries_fractions_and_decimals() {
    let o = taku(&["prob", "--json", "--system", "AnotherWorld", "AW+5 VS AW+3"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["system"], "AnotherWorld");
    assert_eq!(v["success"]["fraction"], "95/144");
    assert_eq!(v["tail"]["fraction"], "0");
    let total: f64 = v["distribution"]
        .as_array()
        .expect("distribution")
        .iter()
        .map(|d| d["probability"].as_f64().expect("p"))
        .sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn plot_writes_one_bar_per_value() {
    let path = std::env::temp_dir().join(format!("taku-prob-{}.svg", std::process::id()));
    let o = taku(&["prob", "3D6", "--plot", path.to_str().expect("utf-8")]);
    assert!(o.status.success());
    let svg = std::fs::read_to_string(&path).expect("svg written");
    assert!(svg.starts_with("<svg "), "{svg}");
    assert_eq!(svg.matches("<rect ").count(), 16);
    std::fs::remove_file(&path).ok();
}

/// Issue 12 item 8: `--plot` with `--vs-difficulty` once did neither.
#[test]
fn plot_with_vs_difficulty_draws_the_chance_per_target() {
    let path = std::env::temp_dir().join(format!("taku-prob-vs-{}.svg", std::process::id()));
    let o = taku(&[
        "prob",
        "--vs-difficulty",
        "5..12",
        "2D6",
        "--plot",
        path.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout(&o).contains("P(success)"),
        "the table is printed too"
    );
    let svg = std::fs::read_to_string(&path).expect("svg written");
    std::fs::remove_file(&path).ok();
    assert!(svg.contains("P(success) per target"), "{svg}");
    assert_eq!(svg.matches("<rect ").count(), 8, "one bar per target");
    // 2D6>=7 succeeds 7/12 of the time.
    assert!(svg.contains("<title>7: 58.33333%</title>"), "{svg}");
}

/// An AF check has no distribution to draw: refused by name, not silently ignored.
#[test]
fn plot_with_an_af_check_is_refused() {
    let path = std::env::temp_dir().join(format!("taku-prob-af-{}.svg", std::process::id()));
    let o = taku(&[
        "prob",
        "--system",
        "AnotherWorld",
        "--af",
        "3,4",
        "--difficulty",
        "20",
        "--rounds",
        "2",
        "--plot",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("an AF check (--af) has no plot"), "{err}");
    assert!(!path.exists());
}

#[test]
fn vs_difficulty_gives_success_per_target() {
    let out = stdout(&taku(&[
        "prob",
        "--system",
        "SRS",
        "--vs-difficulty",
        "13..15",
        "2D6+2",
    ]));
    // 13 needs 11+ on the dice (3/36); 14 needs 12, which is also the critical; 15 only
    // the critical (automatic success).
    assert!(out.contains("     13           1/12 ="), "{out}");
    assert!(out.contains("     14           1/36 ="), "{out}");
    assert!(out.contains("     15           1/36 ="), "{out}");
    // `{T}` marks the target's place.
    let out = stdout(&taku(&["prob", "--vs-difficulty", "2..3", "2D6<={T}"]));
    assert!(out.contains("      2           1/36 ="), "{out}");
    assert!(out.contains("      3           1/12 ="), "{out}");
}

#[test]
fn what_has_no_odds_is_refused_clearly() {
    for (args, says) in [
        (&["prob", "choice[a,b]"][..], "gives text only"),
        (&["prob", "2D6+"][..], "cannot compute the odds of '2D6+'"),
        (&["prob", "--vs-difficulty", "9..3", "2D6"][..], "A ≤ B"),
        (
            &["prob", "--depth", "0", "1R6[6]"][..],
            "--depth must be 1 to 1000",
        ),
        (
            &["--lang", "en", "prob", "--system", "Nope", "2D6"][..],
            "unknown game system",
        ),
        (
            &["prob", "--vs-difficulty", "1..2", "choice[a,b]"][..],
            "gives text only",
        ),
    ] {
        let o = taku(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_af_check_over_party_and_rounds_is_exact() {
    // AW-7: four PCs, three rounds.
    let o = taku(&[
        "prob",
        "--system",
        "AnotherWorld",
        "--af",
        "3,4,2,5",
        "--difficulty",
        "40",
        "--rounds",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["success"]["fraction"], "8720187499/9795520512");
    let sum: f64 = ["success", "fumble", "out_of_rounds"]
        .iter()
        .map(|k| v[k]["probability"].as_f64().expect("p"))
        .sum();
    assert!((sum - 1.0).abs() < 1e-12);
    // A PC with a critical of 11 and a fumble of 3.
    let o = taku(&[
        "--lang",
        "en",
        "prob",
        "--system",
        "AnotherWorld",
        "--af",
        "3/11/3",
        "--difficulty",
        "30",
        "--rounds",
        "1",
    ]);
    let out = stdout(&o);
    assert!(out.contains("P(success)        1/12 = 8.33%"), "{out}");
    assert!(out.contains("P(fumble)         1/12 = 8.33%"), "{out}");
    let o = taku(&[
        "--lang",
        "en",
        "prob",
        "--af",
        "3,x",
        "--difficulty",
        "4",
        "--rounds",
        "1",
        "--system",
        "AnotherWorld",
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("'x' is not a PC"));
}

/// LR-15 by brute force: every 2d6 pair for each side over `rounds` rounds from `start`,
/// the PCs' side adding the state's modifier; higher steps toward Victory, lower toward
/// Defeat, a tie stays; past +3 is Victory, past −3 Defeat (the battle ends there).
fn battle_by_enumeration(start: i64, rounds: u32) -> (u64, u64, u64) {
    let totals: Vec<i64> = (1..=6).flat_map(|a| (1..=6).map(move |b| a + b)).collect();
    let mut outcomes = (0, 0, 0);
    let per_round = 36u64 * 36;
    for code in 0..per_round.pow(rounds) {
        let mut state = start;
        let mut c = code;
        let mut end = None;
        for _ in 0..rounds {
            let (pc, foe) = (totals[(c % 36) as usize], totals[((c / 36) % 36) as usize]);
            c /= per_round;
            if end.is_some() {
                continue;
            }
            let pc = pc + state;
            state += (pc > foe) as i64 - (pc < foe) as i64;
            if state > 3 {
                end = Some(true);
            } else if state < -3 {
                end = Some(false);
            }
        }
        match end {
            Some(true) => outcomes.0 += 1,
            Some(false) => outcomes.1 += 1,
            None => outcomes.2 += 1,
        }
    }
    outcomes
}

fn reduced(n: u64, d: u64) -> String {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let g = gcd(n, d);
    if n == 0 {
        "0".into()
    } else if d / g == 1 {
        (n / g).to_string()
    } else {
        format!("{}/{}", n / g, d / g)
    }
}

/// LR-15 「Victory まで到達,あるいは Defeat まで到達したら,戦いは終結する」: `taku prob --system
/// LotrCoda --battle STATE --rounds N` gives the exact chances, equal to enumerating every
/// roll.
#[test]
fn lotr_battle_odds_are_exact() {
    for (start, rounds) in [(3, 1), (3, 2), (-3, 2), (0, 2)] {
        let (v, d, u) = battle_by_enumeration(start, rounds);
        let all = 1296u64.pow(rounds);
        let o = taku(&[
            "--lang",
            "en",
            "prob",
            "--system",
            "LotrCoda",
            "--battle",
            &start.to_string(),
            "--rounds",
            &rounds.to_string(),
        ]);
        let out = stdout(&o);
        assert!(o.status.success(), "{out}");
        for (name, n) in [("P(victory)", v), ("P(defeat)", d), ("P(undecided)", u)] {
            let want = format!("{name:<12} {} ", reduced(n, all));
            assert!(out.contains(&want), "{start} {rounds}: {want}\n{out}");
        }
    }
    // In Japanese (a table's default) the same numbers.
    let (v, _, _) = battle_by_enumeration(3, 1);
    let o = taku(&[
        "--lang", "ja", "prob", "--system", "LotrCoda", "--battle", "3", "--rounds", "1",
    ]);
    let out = stdout(&o);
    let victory = out
        .lines()
        .find(|l| l.starts_with("勝利の確率"))
        .unwrap_or_default();
    assert!(
        out.contains("集団戦闘") && victory.contains(&format!(" {} = ", reduced(v, 1296))),
        "{out}"
    );
    let o = taku(&[
        "prob", "--system", "LotrCoda", "--battle", "4", "--rounds", "2",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("LR-15"));
    for lang in ["ja", "en"] {
        let o = taku(&["--lang", lang, "prob", "--battle", "0", "--rounds", "2"]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(err.contains("--system LotrCoda"), "{err}");
        assert_eq!(err.contains("付けてください"), lang == "ja", "{err}");
    }
}

/// LR-9 in `taku prob`: the LotR degree table speaks the asked language (Japanese by
/// default, as a table does); the numbers are the same.
#[test]
fn lotr_degrees_in_both_languages() {
    let ja = stdout(&taku(&[
        "--lang",
        "ja",
        "prob",
        "--system",
        "LotrCoda",
        "LOTR+7>=15",
    ]));
    let en = stdout(&taku(&[
        "--lang",
        "en",
        "prob",
        "--system",
        "LotrCoda",
        "LOTR+7>=15",
    ]));
    assert!(
        ja.contains("成功度（LR-9、正確な値）")
            && ja.contains("Extraordinary Success（時間×0.25）"),
        "{ja}"
    );
    assert!(
        en.contains("degrees (LR-9, exact)") && en.contains("Extraordinary Success (time ×0.25)"),
        "{en}"
    );
    for frac in ["5/36", "55/216", "1/54", "1/216"] {
        assert!(ja.contains(frac) && en.contains(frac), "{frac}");
    }
    let ja = stdout(&taku(&[
        "--lang",
        "ja",
        "prob",
        "--system",
        "LotrCoda",
        "LOTR+5 VS LOTR+3#DODGE",
    ]));
    assert!(ja.contains("左の勝ち") && ja.contains("同値: 命中"), "{ja}");
}

/// Issue 13 (aw13c): Another World's and the MTG-based TRPG's reports follow the language
/// of human output — Japanese by default, the seed's words (AW-1 「クリティカル」「ファンブル」,
/// AW-7 「ラウンド制限」) — and English with `--lang en`; full-width digits in `--af` read.
#[test]
fn another_world_and_mtg_reports_are_in_japanese_and_english() {
    let o = taku(&[
        "--lang",
        "ja",
        "prob",
        "--system",
        "AnotherWorld",
        "AW+4>=10",
    ]);
    let out = stdout(&o);
    // Aligned in columns: a Japanese character takes two.
    assert!(
        out.contains("成功                 13/18 =  72.22222%"),
        "{out}"
    );
    assert!(
        out.contains("失敗                  5/18 =  27.77778%"),
        "{out}"
    );
    assert!(
        out.contains("クリティカル          1/36 =   2.77778%"),
        "{out}"
    );
    assert!(
        out.contains("ファンブル            1/36 =   2.77778%"),
        "{out}"
    );
    assert!(out.contains("平均 11.0000  標準偏差"), "{out}");
    let o = taku(&[
        "--lang",
        "en",
        "prob",
        "--system",
        "AnotherWorld",
        "AW+4>=10",
    ]);
    assert!(
        stdout(&o).contains("P(success)          13/18"),
        "{}",
        stdout(&o)
    );
    let af = [
        "prob",
        "--system",
        "AnotherWorld",
        "--af",
        "３，4",
        "--difficulty",
        "40",
        "--rounds",
        "2",
    ];
    let o = taku(&[&["--lang", "ja"][..], &af[..]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = stdout(&o);
    assert!(
        out.contains("AF判定: PC2人、難易度40、2ラウンド、合計0から（AnotherWorld、AW-7）"),
        "{out}"
    );
    assert!(out.contains("成功              "), "{out}");
    assert!(out.contains("ファンブルで失敗  "), "{out}");
    assert!(out.contains("ラウンド切れで失敗"), "{out}");
    let o = taku(&[&["--lang", "en"][..], &af[..]].concat());
    assert!(
        stdout(&o).contains("AF check: 2 PCs, difficulty 40, 2 rounds"),
        "{}",
        stdout(&o)
    );
    // Refusals in Japanese too.
    let o = taku(&[
        "--lang",
        "ja",
        "prob",
        "--system",
        "AnotherWorld",
        "--af",
        "3,x",
        "--difficulty",
        "4",
        "--rounds",
        "1",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("「x」はPCの判定値ではありません"), "{err}");
    let o = taku(&["--lang", "ja", "prob", "--system", "MtgTrpg", "G2"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ライブラリーのカードで決まります"), "{err}");
    let o = taku(&["--lang", "ja", "prob", "--system", "AnotherWorld", "AW+"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("'AW+' の確率を求められません"), "{err}");
}

/// Issue 13, aw13e (play-throughs 4 and 5), AW-7: `taku prob --af`'s numbers are read by
/// taku, not clap — full-width digits fold (`５０`), and a bad or out-of-range value
/// (the table's bounds: 1 to 20 rounds, a difficulty within ±1,000,000) is refused in
/// Japanese by default and in English with `--lang en`.
#[test]
fn af_numbers_fold_full_width_and_are_refused_in_the_users_language() {
    let af = |lang: &str, difficulty: &str, rounds: &str| {
        taku(&[
            "--lang",
            lang,
            "prob",
            "--system",
            "AnotherWorld",
            "--af",
            "3",
            "--difficulty",
            difficulty,
            "--rounds",
            rounds,
        ])
    };
    let o = af("ja", "５０", "２");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let same = af("ja", "50", "2");
    assert_eq!(stdout(&o), stdout(&same));
    let o = af("ja", "abc", "2");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("--difficulty: 「abc」は難易度ではありません（-1000000〜1000000の整数）"),
        "{err}"
    );
    let o = af("en", "99999999999999999999", "2");
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--difficulty: '99999999999999999999' is not a valid difficulty"),
    );
    for rounds in ["0", "-1", "21"] {
        let o = af("ja", "50", rounds);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{rounds}");
        assert!(
            err.contains(&format!(
                "--rounds: 「{rounds}」はラウンド数ではありません（1〜20の整数）"
            )),
            "{rounds}: {err}"
        );
    }
}
