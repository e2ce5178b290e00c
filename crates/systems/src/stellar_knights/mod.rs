//! StellarKnights (銀剣のステラナイツ): so far only its dice-sorting profile, under which
//! the common commands print separate dice sorted (BCDice's `tally_sort` vectors).

use crate::GameSystem;
use taku_dice::Profile;

/// The system's common-command settings: barabara dice sorted.
const PROFILE: Profile = Profile {
    sort_barabara_dice: true,
    ..Profile::DEFAULT
};

/// 銀剣のステラナイツ.
pub struct StellarKnights;

impl GameSystem for StellarKnights {
    fn id(&self) -> &'static str {
        "StellarKnights"
    }
    fn name(&self) -> &'static str {
        "銀剣のステラナイツ"
    }
    fn sort_key(&self) -> &'static str {
        "きんけんのすてらないつ"
    }
    fn help(&self) -> taku_dice::Text {
        taku_dice::Text::new(
            "共通ダイスコマンド。バラバラのダイス（B、R、U、TY）は出目を並べ替えて表示\n\
         このシステム独自の表はまだありません。",
            "Common dice commands with separate dice (B, R, U, TY) shown sorted.\n\
         The system's own tables are not implemented yet.",
        )
    }
    fn profile(&self) -> &Profile {
        &PROFILE
    }
}
