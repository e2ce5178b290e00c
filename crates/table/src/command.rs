//! Table commands: lines starting with `/`.

use crate::event::Role;
use taku_dice::{Lang, Text};

/// A parsed table command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableCommand {
    /// `/join NAME [as ROLE]` (GM only): add a member.
    Join {
        /// Member name.
        name: String,
        /// Role (player when not given).
        role: Role,
    },
    /// `/remove NAME` (GM only): a member leaves the table (their name stays reserved).
    Remove(String),
    /// `/char new NAME`
    CharNew(String),
    /// `/char set NAME KEY VALUE [KEY VALUE…]`: several fields in one event.
    CharSet {
        /// Character.
        name: String,
        /// Fields and values, in order.
        fields: Vec<(String, String)>,
    },
    /// `/char rename FROM TO` (GM): rename one of the GMs' characters.
    CharRename {
        /// Its name now.
        from: String,
        /// The new name.
        to: String,
    },
    /// `/char show NAME`
    CharShow(String),
    /// `/char list`
    CharList,
    /// `/who`: members, roles, their characters.
    Who,
    /// `/scene next` (GM only).
    SceneNext,
    /// `/session end` (GM only).
    SessionEnd,
    /// `/undo`, `/undo #N`, `/undo MEMBER` (GM).
    Undo(UndoTarget),
    /// `/void N` (GM): revert a command's effects, keep it in the log marked as voided.
    Void(u64),
    /// `/reveal ID`: reveal a secret roll (its roller or the GM).
    Reveal(u64),
    /// `/lang ja|en` (GM): the table's language.
    Lang(Lang),
    /// `/w NAME[,NAME…] TEXT` (or `/whisper`): chat for those members (and the GM) only.
    Whisper {
        /// The members it is for.
        to: Vec<String>,
        /// The line.
        text: String,
    },
    /// `/tab TAB TEXT`: chat in a tab (`/tab 雑談 おはよう`).
    TabChat {
        /// The tab as typed.
        tab: String,
        /// The line, exactly as typed after the tab's name.
        text: String,
    },
    /// `/tab new NAME` (GM): add a chat tab.
    TabNew(String),
    /// `/help`
    Help,
    /// Any other command: the game system's, if its rules know it (the words after `/`).
    System(Vec<String>),
}

/// What `/undo` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoTarget {
    /// One's own last line, if it was a change.
    Last,
    /// A change by its number.
    Seq(u64),
    /// A member's last change (GM).
    Member(String),
}

/// What `/help` prints.
pub fn help() -> Text {
    Text::new(
        "\
テーブルのコマンド:
  /join 名前 [as gm|player|spectator]   メンバーを加える（GM）              例: /join alice as player
  /remove 名前                          メンバーを退室させる（GM）          例: /remove alice
  /char new 名前                        自分のキャラクターを作る            例: /char new ミナ
  /char set 名前 キー 値 [キー 値…]     値を設定（GM: 誰のでも）            例: /char set ミナ 理知 4 知覚 2
                                        HP は現在値、HP.max（HP上限）は最大値。空白を含む値は \"…\" で囲む
  /char show 名前                       キャラクターシートを見る            例: /char show ミナ
  /char list                            キャラクターの一覧
  /char rename 名前 新しい名前          GM のキャラクターを改名（GM）       例: /char rename 黒幕(GM) 影の主
  /who                                  メンバーと役割、キャラクター
  /scene next                           次のシーンへ（GM）
  /session end                          セッション終了（GM）
  /undo                                 自分の最後の行が変更ならそれを取り消す（ダイスを振った行は取り消せない）
  /undo #番号                           番号の変更を取り消す（自分の変更。GM は誰のでも）  例: /undo #41
  /undo メンバー                        そのメンバーの最後の変更を取り消す（GM）
  /void 番号                            ダイスを振った行も含め、行の効果を無効にする（GM。ログには無効として残り、振り直しはしない）
  /reveal 番号                          シークレットダイスを公開（振った人かGM）  例: /reveal 12
  /lang ja|en                           テーブルの言語（GM）
  /w 名前[,名前…] 本文                  ささやき（相手とGMだけが見る）      例: /w alice,bob 作戦は？
  /tab タブ名 本文                      メイン以外のタブ（雑談など）に書く  例: /tab 雑談 おはよう
  /tab new タブ名                       チャットタブを追加（GM）            例: /tab new 情報
  /help                                 この一覧
それ以外の行はゲームシステムのダイスコマンド（先頭に S でシークレット）か、チャットです。
判定値にキャラクターの値を使うには {キー} か {キャラクター.キー}: 例 2D6+{知覚}>=10
コマンドの後ろに空白を空けて書いた言葉はコメントとしてログに残ります: 例 AW+5 VS AW+3 説得",
        "\
Table commands:
  /join NAME [as gm|player|spectator]   add a member (GM)                  e.g. /join alice as player
  /remove NAME                          remove a member (GM)               e.g. /remove alice
  /char new NAME                        create your character             e.g. /char new ミナ
  /char set NAME KEY VALUE [KEY VALUE…] set fields (GM: anyone's)         e.g. /char set ミナ 理知 4 知覚 2
                                        HP is the current value, HP.max (HP上限) the maximum; quote values with spaces \"…\"
  /char show NAME                       a character's sheet               e.g. /char show ミナ
  /char list                            every character
  /char rename NAME NEW-NAME            rename a GM's character (GM)      e.g. /char rename Boss(GM) Shade
  /who                                  members, roles, their characters
  /scene next                           next scene (GM)
  /session end                          end the session (GM)
  /undo                                 undo your last line if it was a change (a line that drew dice is never undone)
  /undo #N                              undo change #N (your own; the GM: anyone's)  e.g. /undo #41
  /undo MEMBER                          undo a member's last change (GM)
  /void N                               void a line's effects, dice included (GM; it stays in the log marked voided, nothing is redrawn)
  /reveal N                             reveal a secret roll (its roller or the GM)  e.g. /reveal 12
  /lang ja|en                           the table's language (GM)
  /w NAME[,NAME…] TEXT                  whisper (only they and the GM see it)  e.g. /w alice,bob plan?
  /tab TAB TEXT                         chat in a tab other than main (雑談…)  e.g. /tab 雑談 hello
  /tab new NAME                         add a chat tab (GM)                e.g. /tab new 情報
  /help                                 this list
Any other line is a dice command of the game system (S in front for a secret roll) or chat.
Use a character's values in a check with {KEY} or {CHARACTER.KEY}: e.g. 2D6+{知覚}>=10
Words after a command, separated by a space, stay in the log as its comment: e.g. AW+5 VS AW+3 説得",
    )
}

fn usage(ja: &str, en: &str) -> Text {
    Text::new(format!("使い方: {ja}"), format!("usage: {en}"))
}

/// Splits a command into words; `"…"` (or `「…」`) keeps spaces inside one word.
fn words(body: &str) -> Result<Vec<String>, Text> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let close = match c {
            '"' => Some('"'),
            '「' => Some('」'),
            _ => None,
        };
        let mut word = String::new();
        if let Some(close) = close {
            chars.next();
            loop {
                match chars.next() {
                    Some(c) if c == close => break,
                    Some(c) => word.push(c),
                    None => {
                        return Err(Text::new(
                            format!("{c} が閉じていません。{close} で閉じてください"),
                            format!("unclosed {c}; close it with {close}"),
                        ));
                    }
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
    Ok(out)
}

fn number(word: &str, ja_usage: &str, en_usage: &str) -> Result<u64, Text> {
    word.trim_start_matches('#').parse().map_err(|_| {
        Text::new(
            format!("'{word}' は番号ではありません。使い方: {ja_usage}"),
            format!("'{word}' is not an entry number; usage: {en_usage}"),
        )
    })
}

/// Parses a line starting with `/`. The error says what would be right.
pub fn parse(line: &str) -> Result<TableCommand, Text> {
    let body = line.strip_prefix('/').unwrap_or(line);
    // `/tab TAB TEXT`: the text is chat, kept exactly as typed (not split into words).
    if body.trim_end() == "tab" {
        return Err(usage(
            "/tab タブ名 本文（例: /tab 雑談 おはよう）",
            "/tab TAB TEXT (e.g. /tab 雑談 hello)",
        ));
    }
    if let Some(rest) = body
        .strip_prefix("tab")
        .filter(|r| r.starts_with(char::is_whitespace))
    {
        let rest = rest.trim_start();
        let (tab, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let text = text.trim_start();
        return match (tab, text) {
            ("new", name) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                Ok(TableCommand::TabNew(name.to_string()))
            }
            ("new", _) => Err(usage(
                "/tab new タブ名（空白なし）",
                "/tab new NAME (one word)",
            )),
            (tab, text) if !tab.is_empty() && !text.trim().is_empty() => {
                Ok(TableCommand::TabChat {
                    tab: tab.to_string(),
                    text: text.to_string(),
                })
            }
            _ => Err(usage(
                "/tab タブ名 本文（例: /tab 雑談 おはよう）",
                "/tab TAB TEXT (e.g. /tab 雑談 hello)",
            )),
        };
    }
    let owned = words(body)?;
    let words: Vec<&str> = owned.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["join", name] => Ok(TableCommand::Join {
            name: name.to_string(),
            role: Role::Player,
        }),
        ["join", name, "as", role] => match Role::parse(role) {
            Some(role) => Ok(TableCommand::Join {
                name: name.to_string(),
                role,
            }),
            None => Err(Text::new(
                format!("'{role}' という役割はありません。gm、player、spectator のどれかです"),
                format!("unknown role '{role}'; use gm, player or spectator"),
            )),
        },
        ["join", ..] => Err(usage(
            "/join 名前 [as gm|player|spectator]",
            "/join NAME [as gm|player|spectator]",
        )),
        ["remove", name] => Ok(TableCommand::Remove(name.to_string())),
        ["remove", ..] => Err(usage("/remove 名前", "/remove NAME")),
        ["w" | "whisper", to, text @ ..] if !text.is_empty() => Ok(TableCommand::Whisper {
            to: to
                .split([',', '、'])
                .filter(|n| !n.is_empty())
                .map(str::to_string)
                .collect(),
            text: text.join(" "),
        }),
        ["w" | "whisper", ..] => Err(usage("/w 名前[,名前…] 本文", "/w NAME[,NAME…] TEXT")),
        ["char", "new", name] => Ok(TableCommand::CharNew(name.to_string())),
        ["char", "new", ..] => Err(usage("/char new 名前", "/char new NAME")),
        ["char", "set", name, rest @ ..] if !rest.is_empty() && rest.len() % 2 == 0 => {
            Ok(TableCommand::CharSet {
                name: name.to_string(),
                fields: rest
                    .chunks(2)
                    .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                    .collect(),
            })
        }
        ["char", "set", ..] => Err(usage(
            "/char set 名前 キー 値 [キー 値…]（キーと値は組で。空白を含む値は \"…\" で囲む）",
            "/char set NAME KEY VALUE [KEY VALUE…] (keys and values in pairs; quote a value with spaces in \"…\")",
        )),
        ["char", "rename", from, to] => Ok(TableCommand::CharRename {
            from: from.to_string(),
            to: to.to_string(),
        }),
        ["char", "rename", ..] => Err(usage(
            "/char rename 今の名前 新しい名前（GM の NPC）",
            "/char rename NAME NEW-NAME (a GM's NPC)",
        )),
        ["char", "show", name] => Ok(TableCommand::CharShow(name.to_string())),
        ["char", "show", ..] => Err(usage("/char show 名前", "/char show NAME")),
        ["char", "list"] => Ok(TableCommand::CharList),
        ["char", ..] => Err(usage(
            "/char new|set|show|list|rename …",
            "/char new|set|show|list|rename …",
        )),
        ["who"] => Ok(TableCommand::Who),
        ["scene", "next"] => Ok(TableCommand::SceneNext),
        ["scene", ..] => Err(usage("/scene next", "/scene next")),
        ["session", "end"] => Ok(TableCommand::SessionEnd),
        ["session", ..] => Err(usage("/session end", "/session end")),
        ["undo"] => Ok(TableCommand::Undo(UndoTarget::Last)),
        ["undo", n] if n.starts_with('#') => Ok(TableCommand::Undo(UndoTarget::Seq(number(
            n,
            "/undo #番号",
            "/undo #N",
        )?))),
        ["undo", member] => Ok(TableCommand::Undo(UndoTarget::Member(member.to_string()))),
        ["undo", ..] => Err(usage(
            "/undo | /undo #番号 | /undo メンバー",
            "/undo | /undo #N | /undo MEMBER",
        )),
        ["void", n] => Ok(TableCommand::Void(number(n, "/void 番号", "/void N")?)),
        ["void", ..] => Err(usage("/void 番号", "/void N")),
        ["reveal", n] => Ok(TableCommand::Reveal(number(
            n,
            "/reveal 番号",
            "/reveal N",
        )?)),
        ["reveal", ..] => Err(usage("/reveal 番号", "/reveal N")),
        ["lang", code] => Lang::parse(code).map(TableCommand::Lang).ok_or_else(|| {
            Text::new(
                format!("'{code}' という言語はありません。ja か en です"),
                format!("unknown language '{code}'; use ja or en"),
            )
        }),
        ["lang", ..] => Err(usage("/lang ja|en", "/lang ja|en")),
        ["help"] => Ok(TableCommand::Help),
        [] => Err(Text::new(
            "コマンドがありません。/help で一覧を見られます",
            "no command; /help lists them",
        )),
        words => Ok(TableCommand::System(
            words.iter().map(|w| w.to_string()).collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_set_takes_several_fields_and_quoted_values() {
        assert_eq!(
            parse("/char set ミナ 理知 4 知覚 2"),
            Ok(TableCommand::CharSet {
                name: "ミナ".into(),
                fields: vec![("理知".into(), "4".into()), ("知覚".into(), "2".into())],
            })
        );
        assert_eq!(
            parse("/char set ミナ メモ \"古い 鍵\""),
            Ok(TableCommand::CharSet {
                name: "ミナ".into(),
                fields: vec![("メモ".into(), "古い 鍵".into())],
            })
        );
        let odd = parse("/char set ミナ 理知 4 知覚").expect_err("a key without a value");
        assert!(odd.ja().contains("使い方"), "{odd:?}");
    }

    #[test]
    fn undo_names_a_number_or_a_member() {
        assert_eq!(
            parse("/undo #41"),
            Ok(TableCommand::Undo(UndoTarget::Seq(41)))
        );
        assert_eq!(
            parse("/undo alice"),
            Ok(TableCommand::Undo(UndoTarget::Member("alice".into())))
        );
        assert_eq!(parse("/void 7"), Ok(TableCommand::Void(7)));
        assert_eq!(parse("/lang en"), Ok(TableCommand::Lang(Lang::En)));
    }
}
