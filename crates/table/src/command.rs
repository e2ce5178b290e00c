//! Table commands: lines starting with `/`.

use crate::event::Role;

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
    /// `/char new NAME`
    CharNew(String),
    /// `/char set NAME KEY VALUE…`
    CharSet {
        /// Character.
        name: String,
        /// Field.
        key: String,
        /// Value (the rest of the line).
        value: String,
    },
    /// `/char show NAME`
    CharShow(String),
    /// `/scene next` (GM only).
    SceneNext,
    /// `/session end` (GM only).
    SessionEnd,
    /// `/undo [MEMBER]`: one's own last change; the GM may name a member.
    Undo(Option<String>),
    /// `/reveal ID`: reveal a secret roll (its roller or the GM).
    Reveal(u64),
    /// `/help`
    Help,
    /// Any other command: the game system's, if its rules know it (the words after `/`).
    System(Vec<String>),
}

/// What `/help` prints.
pub const HELP: &str = "\
テーブルのコマンド（Table commands）:
  /join NAME [as gm|player|spectator]  メンバーを加える（GM）            例: /join alice as player
  /char new NAME                       自分のキャラクターを作る          例: /char new ミナ
  /char set NAME KEY VALUE             キャラクターの値を設定（GM: 誰のでも） 例: /char set ミナ 理知 4
  /char show NAME                      キャラクターを見る                例: /char show ミナ
  /scene next                          次のシーンへ（GM）
  /session end                         セッション終了（GM）
  /undo [MEMBER]                       自分の最後の変更を取り消す（GM: 誰のでも） 例: /undo alice
  /reveal ID                           シークレットダイスを公開（振った人かGM） 例: /reveal 12
  /help                                この一覧
それ以外の行はゲームシステムのダイスコマンド（先頭に S でシークレット）か、チャットです。
判定値にキャラクターの値を使うには {KEY} か {キャラクター.KEY}: 例 2D6+{知覚}>=10";

/// Parses a line starting with `/`. The error says what would be right.
pub fn parse(line: &str) -> Result<TableCommand, String> {
    let body = line.strip_prefix('/').unwrap_or(line);
    let words: Vec<&str> = body.split_whitespace().collect();
    let usage = |u: &str| Err(format!("usage: {u}"));
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
            None => Err(format!(
                "unknown role '{role}'; use gm, player or spectator"
            )),
        },
        ["join", ..] => usage("/join NAME [as gm|player|spectator]"),
        ["char", "new", name] => Ok(TableCommand::CharNew(name.to_string())),
        ["char", "new", ..] => usage("/char new NAME"),
        ["char", "set", name, key, rest @ ..] if !rest.is_empty() => Ok(TableCommand::CharSet {
            name: name.to_string(),
            key: key.to_string(),
            value: rest.join(" "),
        }),
        ["char", "set", ..] => usage("/char set NAME KEY VALUE"),
        ["char", "show", name] => Ok(TableCommand::CharShow(name.to_string())),
        ["char", "show", ..] => usage("/char show NAME"),
        ["char", ..] => usage("/char new|set|show ..."),
        ["scene", "next"] => Ok(TableCommand::SceneNext),
        ["scene", ..] => usage("/scene next"),
        ["session", "end"] => Ok(TableCommand::SessionEnd),
        ["session", ..] => usage("/session end"),
        ["undo"] => Ok(TableCommand::Undo(None)),
        ["undo", member] => Ok(TableCommand::Undo(Some(member.to_string()))),
        ["undo", ..] => usage("/undo [MEMBER]"),
        ["reveal", id] => id
            .trim_start_matches('#')
            .parse()
            .map(TableCommand::Reveal)
            .map_err(|_| format!("'{id}' is not a roll number; usage: /reveal ID")),
        ["reveal", ..] => usage("/reveal ID"),
        ["help"] => Ok(TableCommand::Help),
        words => Ok(TableCommand::System(
            words.iter().map(|w| w.to_string()).collect(),
        )),
    }
}
