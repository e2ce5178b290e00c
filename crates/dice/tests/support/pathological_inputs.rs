//! Inputs built to hurt the parser and the evaluator: deep nesting, long lines, huge
//! numbers, nested repeats, endless rerolls, random bytes. Shared by `taku-dice`'s and
//! `taku-systems`' pathological tests, which include this file by path.

use taku_dice::{ChaChaSource, DiceSource};

/// A named input; the name says what it is about, so a failure points at it.
pub struct Input {
    /// What the input is.
    pub name: String,
    /// The text.
    pub text: String,
}

fn input(name: impl Into<String>, text: impl Into<String>) -> Input {
    Input {
        name: name.into(),
        text: text.into(),
    }
}

/// The hand-built inputs, each once as typed and once in full-width characters (which only
/// mean something in `Mode::Normalize`).
///
/// `arith_nesting` is how deep parentheses around plain arithmetic go.
pub fn named(arith_nesting: usize) -> Vec<Input> {
    let deep = 10_000;
    let mut v = vec![
        input(
            "10000 parentheses around a die",
            format!("{}1D6{}", "(".repeat(deep), ")".repeat(deep)),
        ),
        input(
            format!("{arith_nesting} parentheses around a number"),
            format!(
                "{}1{}",
                "(".repeat(arith_nesting),
                ")".repeat(arith_nesting)
            ),
        ),
        input(
            format!("{arith_nesting} parentheses in Calc"),
            format!(
                "C{}1{}",
                "(".repeat(arith_nesting),
                ")".repeat(arith_nesting)
            ),
        ),
        input(
            "unbalanced opening parentheses",
            format!("{}1D6", "(".repeat(deep)),
        ),
        input(
            "unbalanced closing parentheses",
            format!("1D6{}", ")".repeat(deep)),
        ),
        input("parentheses only", "()".repeat(deep)),
        input(
            "nested empty parentheses",
            format!("{}{}", "(".repeat(deep), ")".repeat(deep)),
        ),
        input(
            "10000 unary minus signs",
            format!("{}1D6", "-".repeat(deep)),
        ),
        input(
            "10000 unary minus signs in Calc",
            format!("C({}1)", "-".repeat(deep)),
        ),
        input(
            "10000 unary plus and minus",
            format!("{}1D6", "+-".repeat(deep / 2)),
        ),
        input("1+1+… with 20000 terms", vec!["1"; 20_000].join("+")),
        input(
            "a die plus 20000 ones",
            format!("1D6+{}", vec!["1"; 20_000].join("+")),
        ),
        input(
            "Calc of 20000 terms",
            format!("C({})", vec!["1"; 20_000].join("+")),
        ),
        input("huge dice count", "99999999999999999999D6"),
        input("huge sides", "1D99999999999999999999"),
        input(
            "largest i64 dice",
            "9223372036854775807D9223372036854775807",
        ),
        input("huge product in Calc", "C(99999999999999999999*99999999)"),
        input(
            "overflowing product in Calc",
            "C(9223372036854775807*9223372036854775807)",
        ),
        input("overflowing sum", "1D6+9223372036854775807"),
        input("i64::MIN in Calc", "C(-9223372036854775807-1)"),
        input("i64::MIN divided by -1", "C((-9223372036854775807-1)/-1)"),
        input("division by zero in a sum", "1D6/0"),
        input("rounded division by zero in a sum", "1D6/0U"),
        input("division by zero in Calc", "C(1/0)"),
        input("rounded division by zero in Calc", "C(1/0R)"),
        input("division by zero in a count", "(1/0)B6"),
        input("nested repeats (refused)", "x100 x100 x100 C(1)"),
        input("nested repeats in other cases", "x100 X100 X100 X100 C(1)"),
        input("nested long repeats", "repeat100 REPEAT100 Rep100 1D6"),
        input("repeat of a huge count", "x99999999999999999999 1D6"),
        input("endless-looking upper dice", "4U2[2]"),
        input("upper dice on one side", "100U1[2]"),
        input("upper dice threshold one", "4U6[1]"),
        input("endless-looking reroll", "100R2[2]"),
        input("reroll of every face", "100R2>=1"),
        input("reroll of one die a lot", "1R2[2]"),
        input("reroll of 200 dice a lot", "200R2[>=1]"),
        input(
            "choice over a huge range",
            "choice1000[1-99999999999999999999]",
        ),
        input("choice of a huge count", "choice99999999999999999999[a,b]"),
        input(
            "choice with 50000 items",
            format!("choice[{}]", vec!["a"; 50_000].join(",")),
        ),
        input("60000 characters of D6+", "D6+".repeat(20_000)),
        input(
            "200 dice of 10000 sides, 50 times",
            vec!["200D10000"; 50].join("+"),
        ),
        input("tally of many dice", "200TY20"),
        input("barabara with many groups", vec!["200B6"; 60].join("+")),
        input("D66 in a sum, many", "200D66"),
        input("keep more than rolled", "2D6KH99999999999999999"),
        input("negative keep", "2D6KH(0-1)"),
        input("comparison only", ">=>=>=<><><>"),
        input("whitespace only", " \t\n\r\x0b\x0c"),
        input("NUL bytes", "\0\0\0"),
        input("empty", ""),
    ];
    let full_width: Vec<Input> = v
        .iter()
        .filter(|i| i.text.len() <= 70_000)
        .map(|i| input(format!("{} (full-width)", i.name), to_full_width(&i.text)))
        .collect();
    v.extend(full_width);
    v.push(input(
        "64 KiB of random printable text",
        random_printable(1, 64 * 1024),
    ));
    v.push(input(
        "64 KiB of random printable text without spaces",
        random_printable(2, 64 * 1024).replace(' ', "D"),
    ));
    v.push(input(
        "full-width game-system input",
        "ＳＲＳ＋３＞＝１０　ＳＧＳ－１　２Ｄ６＠１２＃３　ｘ３　ＣＨＯＩＣＥ［ａ，ｂ］",
    ));
    v
}

/// `count` random byte strings (up to 64 bytes), decoded lossily, from a fixed seed.
pub fn random_byte_strings(count: usize) -> Vec<String> {
    let mut rng = ChaChaSource::from_seed(0x5eed);
    (0..count)
        .map(|_| {
            let len = draw(&mut rng, 65) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| draw(&mut rng, 256) as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect()
}

/// Printable ASCII, spaces included, `len` bytes from `seed`.
fn random_printable(seed: u64, len: usize) -> String {
    let mut rng = ChaChaSource::from_seed(seed);
    (0..len)
        .map(|_| char::from(b' ' + draw(&mut rng, 95) as u8))
        .collect()
}

/// A value in `0..n`.
fn draw(rng: &mut ChaChaSource, n: u32) -> u32 {
    rng.roll(n).expect("a ChaCha source never fails") - 1
}

/// ASCII `!`..`~` to U+FF01..U+FF5E and space to U+3000, as players type on Japanese
/// keyboards.
pub fn to_full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' => '\u{3000}',
            '!'..='~' => char::from_u32(c as u32 + 0xFEE0).expect("U+FF01..U+FF5E are chars"),
            c => c,
        })
        .collect()
}

/// A source that always shows the highest face, so every reroll condition on the top face
/// holds forever and only the draw limit stops it.
pub struct AlwaysHighest;

impl DiceSource for AlwaysHighest {
    fn roll(&mut self, sides: u32) -> Result<u32, taku_dice::DrawError> {
        Ok(sides)
    }
}

/// Runs `f` on a thread named `name` with the platform's default 2 MiB stack, so a stack
/// overflow aborts naming the input, and re-raises a panic as the test's.
pub fn on_default_stack(name: &str, f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("a thread can be spawned");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}
