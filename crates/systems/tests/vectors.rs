//! Every BCDice vector in ../shared/vectors/bcdice and every vector file under
//! tests/data, each case a named test.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use taku_systems::conformance::{check, parse_vectors};

fn vector_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        root.join("../../../shared/vectors/bcdice"),
        root.join("tests/data"),
    ]
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for dir in vector_dirs() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read vector folder {}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("vector file is readable");
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let vectors = match parse_vectors(&text) {
                Ok(v) => v,
                Err(e) => {
                    let msg = format!("{}: {e}", file.display());
                    trials.push(Trial::test(format!("{stem}::parse"), move || Err(msg.into())));
                    continue;
                }
            };
            for (i, v) in vectors.into_iter().enumerate() {
                let name = format!("{stem}::{i:03} {} {}", v.game_system, v.input.replace('\n', "\\n"));
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
