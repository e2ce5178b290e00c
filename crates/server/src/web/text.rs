//! The web table's own words: every label, button and notice the pages and the script
//! show, each a [`Text`] in Japanese and English. One enum matched exhaustively, so the
//! compiler proves every message has both wordings; the script gets the ones it needs as
//! JSON in the page ([`Ui::script_catalog`]).

use taku_dice::{Lang, Text};

/// A message of the web table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // Each variant's doc is its wording below.
pub enum Ui {
    Tagline,
    CreateTitle,
    System,
    TableName,
    GmName,
    Create,
    CreateFailed,
    ApiDocs,
    GmPageTitle,
    GmPageIntro,
    EnterTable,
    YourLink,
    InvitePlayers,
    InviteSpectators,
    InviteNote,
    Copy,
    Copied,
    JoinTitle,
    YourName,
    Join,
    NoInvite,
    JoinFailed,
    NoToken,
    Log,
    LoadOlder,
    Characters,
    Members,
    CommandLine,
    CommandHint,
    Send,
    CopyPersonalLink,
    Reveal,
    Undo,
    Void,
    Success,
    Failure,
    Critical,
    Fumble,
    Secret,
    Draws,
    Connecting,
    Connected,
    Reconnecting,
    SendFailed,
    NoSuchTable,
    ShowCharacters,
    Derived,
    RoleGm,
    RolePlayer,
    RoleSpectator,
    Compact,
    ExportHtml,
    ExportJson,
    Palette,
    Import,
    ImportHint,
    GmTools,
    NewPlayerInvite,
    NewSpectatorInvite,
    Language,
    TableState,
    RevokeInvites,
    NewTab,
    AddTab,
    ManageMembers,
    NewLinkFor,
    RemoveMember,
    MainTab,
    ChatTab,
    Tabs,
    LoadNewer,
    ConfirmRemove,
    ConfirmRelink,
    ConfirmRevokeInvites,
    Removed,
    InvitesRevoked,
    NewLinkMade,
    Unread,
    TabHint,
}

impl Ui {
    /// The message in both languages.
    pub fn text(self) -> Text {
        let (ja, en) = match self {
            Ui::Tagline => (
                "テキストセッションのためのオンライン卓",
                "An online table for text sessions",
            ),
            Ui::CreateTitle => ("卓を作る", "Create a table"),
            Ui::System => ("ゲームシステム", "Game system"),
            Ui::TableName => ("卓の名前", "Table name"),
            Ui::GmName => ("GMの名前（空白なし）", "GM's name (one word)"),
            Ui::Create => ("作成", "Create"),
            Ui::CreateFailed => ("卓を作成できませんでした", "Could not create the table"),
            Ui::ApiDocs => (
                "bcdice-api v2 と卓APIについて",
                "About bcdice-api v2 and the table API",
            ),
            Ui::GmPageTitle => ("卓ができました", "Your table is ready"),
            Ui::GmPageIntro => (
                "招待リンクを参加者に送ってください。各リンクは一人一回だけ使えます。このページを閉じる前に自分のリンクを控えてください。",
                "Send the invite links to your group; each link joins one person once. Keep your own link before closing this page.",
            ),
            Ui::EnterTable => ("卓に入る", "Enter the table"),
            Ui::YourLink => ("あなた（GM）の個人リンク", "Your (the GM's) personal link"),
            Ui::InvitePlayers => ("プレイヤー招待リンク", "Player invite links"),
            Ui::InviteSpectators => ("観戦者招待リンク", "Spectator invite links"),
            Ui::InviteNote => (
                "リンクは秘密にしてください：知っている人は誰でも参加できます。",
                "Keep links private: anyone who has one can join.",
            ),
            Ui::Copy => ("コピー", "Copy"),
            Ui::Copied => ("コピーしました", "Copied"),
            Ui::JoinTitle => ("卓に参加する", "Join the table"),
            Ui::YourName => ("あなたの名前（空白なし）", "Your name (one word)"),
            Ui::Join => ("参加", "Join"),
            Ui::NoInvite => (
                "招待リンクに招待がありません。GMにもう一度リンクをもらってください。",
                "This link carries no invite; ask the GM for the link again.",
            ),
            Ui::JoinFailed => ("参加できませんでした", "Could not join"),
            Ui::NoToken => (
                "この卓の参加情報がこのブラウザにありません。招待リンクか個人リンクから開いてください。",
                "This browser has not joined this table: open an invite link or your personal link.",
            ),
            Ui::Log => ("ログ", "Log"),
            Ui::LoadOlder => ("以前のログを読み込む", "Load older entries"),
            Ui::Characters => ("キャラクター", "Characters"),
            Ui::Members => ("参加者", "Members"),
            Ui::CommandLine => ("チャット・コマンド", "Chat or command"),
            Ui::CommandHint => (
                "Enterで送信、Shift+Enterで改行、↑↓で履歴",
                "Enter sends, Shift+Enter breaks the line, ↑↓ history",
            ),
            Ui::Send => ("送信", "Send"),
            Ui::CopyPersonalLink => ("個人リンクをコピー", "Copy my personal link"),
            Ui::Reveal => ("結果を公開", "Reveal the result"),
            Ui::Undo => ("取り消し", "Undo"),
            Ui::Void => ("無効化", "Void"),
            Ui::Success => ("成功", "Success"),
            Ui::Failure => ("失敗", "Failure"),
            Ui::Critical => ("クリティカル", "Critical"),
            Ui::Fumble => ("ファンブル", "Fumble"),
            Ui::Secret => ("シークレット", "Secret"),
            Ui::Draws => ("出目", "Draws"),
            Ui::Connecting => ("接続中…", "Connecting…"),
            Ui::Connected => ("接続済み", "Connected"),
            Ui::Reconnecting => ("再接続中…", "Reconnecting…"),
            Ui::SendFailed => ("送信できませんでした", "Could not send"),
            Ui::NoSuchTable => ("その卓はありません", "No such table"),
            Ui::ShowCharacters => ("キャラクター一覧", "Characters"),
            Ui::Derived => ("（算出）", "(derived)"),
            Ui::RoleGm => ("GM", "GM"),
            Ui::RolePlayer => ("プレイヤー", "player"),
            Ui::RoleSpectator => ("観戦者", "spectator"),
            Ui::Compact => ("1行表示", "Compact"),
            Ui::ExportHtml => ("ログ保存（HTML）", "Save log (HTML)"),
            Ui::ExportJson => ("ログ保存（JSON）", "Save log (JSON)"),
            Ui::Palette => ("チャットパレット", "Chat palette"),
            Ui::Import => ("キャラクターを読み込む", "Import a character"),
            Ui::GmTools => ("GMツール", "GM tools"),
            Ui::NewPlayerInvite => ("プレイヤー招待を発行", "New player invite"),
            Ui::NewSpectatorInvite => ("観戦者招待を発行", "New spectator invite"),
            Ui::Language => ("卓の言語", "Table language"),
            Ui::TableState => ("卓の状況", "Table state"),
            Ui::RevokeInvites => ("未使用の招待をすべて無効化", "Revoke all unused invites"),
            Ui::NewTab => ("新しいタブの名前", "New tab's name"),
            Ui::AddTab => ("タブを追加", "Add the tab"),
            Ui::ManageMembers => ("参加者の管理", "Manage members"),
            Ui::NewLinkFor => ("個人リンクを再発行", "New personal link"),
            Ui::RemoveMember => ("退室させる", "Remove"),
            Ui::MainTab => ("メイン", "Main"),
            Ui::ChatTab => ("雑談", "Chat"),
            Ui::Tabs => ("タブ", "Tabs"),
            Ui::LoadNewer => ("新しいログを読み込む", "Load newer entries"),
            Ui::ConfirmRemove => (
                "を退室させますか？その人のリンクはすべて使えなくなります（ログとキャラクターは残ります）",
                ": remove this member? Every link they hold stops working (their log lines and characters stay)",
            ),
            Ui::ConfirmRelink => (
                "の個人リンクを再発行しますか？今までのリンクは使えなくなります",
                ": issue a new personal link? Their old links stop working",
            ),
            Ui::ConfirmRevokeInvites => (
                "未使用の招待リンクをすべて無効にしますか？",
                "Revoke every unused invite link?",
            ),
            Ui::Removed => ("退室させました", "removed"),
            Ui::InvitesRevoked => ("招待を無効にしました", "Invites revoked"),
            Ui::NewLinkMade => (
                "新しい個人リンク（本人に渡してください）",
                "new personal link (give it to them)",
            ),
            Ui::Unread => ("未読", "unread"),
            Ui::TabHint => (
                "このタブの発言は雑談として残ります（ダイスとコマンドはメインへ）",
                "Lines in this tab stay as chat (dice and commands go to Main)",
            ),
            Ui::ImportHint => (
                "ココフォリアのキャラクター駒（クリップボードのJSON）か、このシステムのシートを貼り付けてください",
                "Paste a CCFOLIA character (its clipboard JSON) or this system's sheet",
            ),
        };
        Text::new(ja, en)
    }

    /// The message in `lang`.
    pub fn get(self, lang: Lang) -> String {
        self.text().get(lang).to_string()
    }

    /// The messages the script shows, as a JSON object of `lang`'s wordings.
    pub fn script_catalog(lang: Lang) -> String {
        let entries = [
            ("copied", Ui::Copied),
            ("noInvite", Ui::NoInvite),
            ("joinFailed", Ui::JoinFailed),
            ("noToken", Ui::NoToken),
            ("connecting", Ui::Connecting),
            ("connected", Ui::Connected),
            ("reconnecting", Ui::Reconnecting),
            ("sendFailed", Ui::SendFailed),
            ("copy", Ui::Copy),
            ("confirmRemove", Ui::ConfirmRemove),
            ("confirmRelink", Ui::ConfirmRelink),
            ("confirmRevokeInvites", Ui::ConfirmRevokeInvites),
            ("removed", Ui::Removed),
            ("invitesRevoked", Ui::InvitesRevoked),
            ("newLinkMade", Ui::NewLinkMade),
            ("unread", Ui::Unread),
            ("tabHint", Ui::TabHint),
        ];
        let map: serde_json::Map<String, serde_json::Value> = entries
            .iter()
            .map(|(k, m)| (k.to_string(), m.get(lang).into()))
            .collect();
        serde_json::Value::Object(map).to_string()
    }
}
