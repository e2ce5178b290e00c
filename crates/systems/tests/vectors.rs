//! Every vector file under tests/data (BCDice's own vectors, the project's shipped copy of
//! shared/vectors/bcdice, differential vectors), each case a named test.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use taku_systems::conformance::{check, parse_vectors};

fn vector_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![root.join("tests/data")]
}

fn collect_toml(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read vector folder {}: {e}", dir.display()));
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            collect_toml(&path, out);
        } else if path.extension().is_some_and(|x| x == "toml") {
            out.push(path);
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for dir in vector_dirs() {
        let mut files = Vec::new();
        collect_toml(&dir, &mut files);
        files.sort();
        assert!(!files.is_empty(), "no vector files under {}", dir.display());
        for file in files {
            let text = std::fs::read_to_string(&file).expect("vector file is readable");
            let stem = file
                .strip_prefix(&dir)
                .unwrap_or(&file)
                .with_extension("")
                .to_string_lossy()
                .into_owned();
            let vectors = match parse_vectors(&text) {
                Ok(v) => v,
                Err(e) => {
                    let msg = format!("{}: {e}", file.display());
                    trials.push(Trial::test(format!("{stem}::parse"), move || {
                        Err(msg.into())
                    }));
                    continue;
                }
            };
            for (i, v) in vectors.into_iter().enumerate() {
                let name = format!(
                    "{stem}::{i:03} {} {}",
                    v.game_system,
                    v.input.replace('\n', "\\n")
                );
                trials.push(Trial::test(name, move || {
                    check(&v).map_err(|m| {
                        Failed::from(format!(
                            "input {:?}\nexpected {}\n     got {}",
                            v.input, m.expected, m.got
                        ))
                    })
                }));
            }
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
