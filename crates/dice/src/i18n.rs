//! What users read, in every language taku speaks: Japanese first, English available.
//!
//! The key design decision: a user-facing message is a [`Text`], a value holding its
//! Japanese and its English wording, built where the message arises (with its typed
//! arguments already in place) and rendered only when shown, in the reader's [`Lang`].
//! [`Text::new`] is the only way to build one and takes both wordings, so the compiler
//! proves that no message exists in one language only; there is no lookup by key that
//! could miss at run time. Machine-readable fields (bcdice-api's English strings, API
//! `reason` codes) are not `Text`s and stay as they are.

use std::fmt;

/// A language taku speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Lang {
    /// 日本語 (the default at a table).
    #[default]
    Ja,
    /// English.
    En,
}

impl Lang {
    /// Every language, Japanese first.
    pub const ALL: [Lang; 2] = [Lang::Ja, Lang::En];

    /// Parses `ja`/`en` (also `japanese`, `english`, `日本語`, `英語`), any case.
    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ja" | "jp" | "japanese" | "日本語" => Some(Lang::Ja),
            "en" | "english" | "英語" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language a POSIX locale (`LANG`: `ja_JP.UTF-8`, `en_US.UTF-8`, `C`) names;
    /// `None` when it names neither (`C`, `POSIX`, empty).
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let lang = locale.split(['_', '.', '@', '-']).next().unwrap_or("");
        match lang.to_ascii_lowercase().as_str() {
            "ja" => Some(Lang::Ja),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// `ja` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ja => "ja",
            Lang::En => "en",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A message in Japanese and English. See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Text {
    ja: String,
    en: String,
}

impl Text {
    /// A message from its Japanese and its English wording.
    pub fn new(ja: impl Into<String>, en: impl Into<String>) -> Text {
        Text {
            ja: ja.into(),
            en: en.into(),
        }
    }

    /// Text that reads the same in every language: a name, a number, a dice command, a
    /// result BCDice prints. Not for sentences.
    pub fn verbatim(s: impl Into<String>) -> Text {
        let s = s.into();
        Text {
            ja: s.clone(),
            en: s,
        }
    }

    /// The wording in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ja => &self.ja,
            Lang::En => &self.en,
        }
    }

    /// The Japanese wording.
    pub fn ja(&self) -> &str {
        &self.ja
    }

    /// The English wording.
    pub fn en(&self) -> &str {
        &self.en
    }

    /// Both wordings changed by `f` (applied to each with its language).
    pub fn map(&self, f: impl Fn(Lang, &str) -> String) -> Text {
        Text {
            ja: f(Lang::Ja, &self.ja),
            en: f(Lang::En, &self.en),
        }
    }

    /// This text followed by `other`, with `sep` between them in every language.
    pub fn then(mut self, sep: &str, other: &Text) -> Text {
        self.ja.push_str(sep);
        self.ja.push_str(&other.ja);
        self.en.push_str(sep);
        self.en.push_str(&other.en);
        self
    }

    /// The texts joined with `sep`.
    pub fn join<'a>(texts: impl IntoIterator<Item = &'a Text>, sep: &str) -> Text {
        let mut out: Option<Text> = None;
        for t in texts {
            out = Some(match out {
                None => t.clone(),
                Some(acc) => acc.then(sep, t),
            });
        }
        out.unwrap_or_default()
    }

    /// Whether both wordings are empty.
    pub fn is_empty(&self) -> bool {
        self.ja.is_empty() && self.en.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_renders_in_the_language_asked_for() {
        let t = Text::new("成功", "success");
        assert_eq!(t.get(Lang::Ja), "成功");
        assert_eq!(t.get(Lang::En), "success");
        let joined = Text::join([&t, &Text::verbatim("2D6")], " ");
        assert_eq!(joined.get(Lang::Ja), "成功 2D6");
        assert_eq!(joined.get(Lang::En), "success 2D6");
    }

    #[test]
    fn locales_name_their_language() {
        assert_eq!(Lang::from_locale("ja_JP.UTF-8"), Some(Lang::Ja));
        assert_eq!(Lang::from_locale("en_US.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::from_locale("C.UTF-8"), None);
        assert_eq!(Lang::from_locale(""), None);
        assert_eq!(Lang::parse("EN"), Some(Lang::En));
        assert_eq!(Lang::parse("日本語"), Some(Lang::Ja));
        assert_eq!(Lang::parse("fr"), None);
    }
}
