//! The per-system settings that change how common commands behave (spec §5).

/// How `/` without a suffix rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Toward negative infinity (BCDice's default).
    Floor,
    /// Toward positive infinity.
    Ceil,
    /// To nearest, ties away from zero.
    Round,
}

/// Order of the two dice of a D66.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum D66Order {
    /// First die is tens.
    AsRolled,
    /// Smaller die is tens.
    Ascending,
    /// Larger die is tens.
    Descending,
}

/// Settings a game system gives the common commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Profile {
    /// Rounding of plain `/`.
    pub rounding: Rounding,
    /// Sides of `ND` with no sides written.
    pub implicit_sides: i64,
    /// Sort each term's dice ascending in AddDice.
    pub sort_added_dice: bool,
    /// Sort each group's dice ascending in B, R, U and TY.
    pub sort_barabara_dice: bool,
    /// Order of D66 without a suffix (and of 66-sided dice in sums).
    pub d66_order: D66Order,
    /// Draw `D9` dice in sums.
    pub enable_d9: bool,
}

impl Profile {
    /// BCDice's defaults, used by DiceBot.
    pub const DEFAULT: Profile = Profile {
        rounding: Rounding::Floor,
        implicit_sides: 6,
        sort_added_dice: false,
        sort_barabara_dice: false,
        d66_order: D66Order::AsRolled,
        enable_d9: false,
    };
}

impl Default for Profile {
    fn default() -> Self {
        Self::DEFAULT
    }
}
