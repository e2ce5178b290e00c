//! The MTG-based TRPG (rules digest `mtg-trpg.md`, MT-1 to MT-3): checks reveal cards from
//! the top of a PC's library instead of rolling dice, so the library's order is table
//! state. [`card`] is the card model (MT-1), [`loaders`] reads the bulk card files
//! players have, [`builtin`] is the offline minimal set, [`deck`] reads deck lists,
//! [`check`] is MT-2's procedure, [`odds`] its exact success probability (MT-3), and
//! [`rules`] the table commands.
//!
//! Left out on purpose (MT-13 of issue 13): the seed names 《クリティカル・カード》 but
//! defines it nowhere, so it is not modelled; sorcery/instant timing (MT-3) is the GM's to
//! rule on (a table tracks no phases or priority), said in the help.

pub mod builtin;
pub mod card;
pub mod check;
pub mod deck;
pub mod loaders;
pub mod odds;
pub mod rules;

use crate::GameSystem;
use card::CardDb;
use std::sync::OnceLock;
use taku_dice::Text;

/// The card database tables look names up in, installed once by the host process, or why
/// it could not be read.
static CARD_DB: OnceLock<Result<CardDb, Text>> = OnceLock::new();

/// How to read the card database, installed by the host process and called on the first
/// MTG table command that needs cards.
type Loader = Box<dyn Fn() -> Result<CardDb, Text> + Send + Sync>;
static LOADER: OnceLock<Loader> = OnceLock::new();

/// The built-in set, for [`card_db`] when the installed database could not be read.
static BUILTIN: OnceLock<CardDb> = OnceLock::new();

/// Installs the card database (the built-in set plus a loaded index) for tables in this
/// process; `Err` gives it back if one was installed already.
pub fn install_card_db(db: CardDb) -> Result<(), CardDb> {
    CARD_DB.set(Ok(db)).map_err(|e| e.unwrap_or_default())
}

/// Installs how to read the card database, called once, on the first MTG table command
/// that needs cards (issue 13, MTG-8): an index that cannot be read affects only MTG
/// tables, whose commands are refused with the loader's message; no other system and no
/// server start reads it. `false` if a loader or a database was installed already.
pub fn install_card_loader(
    load: impl Fn() -> Result<CardDb, Text> + Send + Sync + 'static,
) -> bool {
    CARD_DB.get().is_none() && LOADER.set(Box::new(load)).is_ok()
}

/// The installed card database (read now by the installed loader if it was not yet), the
/// built-in set when none was installed, or why the installed one cannot be read.
pub fn card_db_checked() -> Result<&'static CardDb, &'static Text> {
    CARD_DB
        .get_or_init(|| match LOADER.get() {
            Some(load) => load(),
            None => Ok(builtin::builtin()),
        })
        .as_ref()
}

/// The installed card database, or the built-in set when none was installed or it cannot
/// be read ([`card_db_checked`] says why).
pub fn card_db() -> &'static CardDb {
    card_db_checked().unwrap_or_else(|_| BUILTIN.get_or_init(builtin::builtin))
}

/// The MTG-based TRPG.
pub struct MtgTrpg;

impl GameSystem for MtgTrpg {
    fn id(&self) -> &'static str {
        "MtgTrpg"
    }
    fn name(&self) -> &'static str {
        "MTGベースのTRPG（ライブラリーで行動判定）"
    }
    fn sort_key(&self) -> &'static str {
        "MTGTRPG"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(HELP, HELP_EN)
    }
    fn table_rules(&self) -> Option<&dyn crate::DynRules> {
        Some(&rules::MtgRules)
    }
}

const HELP: &str = "\
MTGベースのTRPG: 行動判定はダイスではなくライブラリーの上のカードで行う（MT-2）
  テーブルで /deck load でライブラリーを作り、/deck check で判定する（下のコマンド一覧）
  コマンドラインでは:
    taku mtg check --library \"Elvish Mystic; Runeclaw Bear\" --color green --difficulty 2
    taku mtg odds --deck deck.txt --color 緑 --difficulty 2 [--boost] [--table]
    taku mtg cards --load AtomicCards.json   （カードデータベースの索引を作る）
  原典にないこと: 《クリティカル・カード》は原典に名前だけあり定義がないので扱いません。
  ソーサリー／インスタントタイミング（MT-3）はテーブルでは追跡せず、GMの判断に任せます。
  ダイスボットの共通コマンドも使えます。";

const HELP_EN: &str = "\
MTG-based TRPG: action checks reveal cards from the top of the library instead of rolling dice (MT-2)
  At a table, /deck load makes the library and /deck check makes a check (commands below)
  On the command line:
    taku mtg check --library \"Elvish Mystic; Runeclaw Bear\" --color green --difficulty 2
    taku mtg odds --deck deck.txt --color 緑 --difficulty 2 [--boost] [--table]
    taku mtg cards --load AtomicCards.json   (builds the card database's index)
  Outside the seed: the \"critical card\" is named by the seed but defined
  nowhere in it, so it is not modelled. Sorcery/instant timing (MT-3) is not tracked at a
  table; the GM rules on it.
  DiceBot's common dice commands also work.";
