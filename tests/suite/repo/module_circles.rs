//! The library's top-level modules import from each other one way only:
//! no two of them reach each other, directly or around a circle
//! (docs/design.md, the module map). Edges are the `crate::module` paths
//! in code (comments and unit tests left out), gathered from `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Edges = BTreeMap<String, BTreeSet<String>>;

/// The code of a source file: its unit tests cut off, comments dropped.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules each file under `dir` names through `crate::`,
/// added to `edges` under the file's own top-level module `top`.
fn gather(dir: &Path, top: Option<&str>, edges: &mut Edges) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let module = top.map_or_else(|| name.trim_end_matches(".rs").to_string(), String::from);
        if path.is_dir() {
            if top.is_none() && name == "bin" {
                continue;
            }
            gather(&path, Some(&module), edges);
        } else if name.ends_with(".rs") && name != "tests.rs" && module != "lib" {
            for (to, _) in code_edges(&std::fs::read_to_string(&path).unwrap()) {
                if to != module {
                    edges.entry(module.clone()).or_default().insert(to);
                }
            }
        }
    }
}

/// The `crate::name` paths of a file's code, as (name, offset).
fn code_edges(text: &str) -> Vec<(String, usize)> {
    let code = code_of(text);
    code.match_indices("crate::")
        .filter(|(at, _)| {
            // `xlsudoku::` or `$crate::` are not this crate's inner paths.
            !code[..*at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
        })
        .map(|(at, _)| {
            let rest = &code[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (rest[..end].to_string(), at)
        })
        .filter(|(name, _)| !name.is_empty())
        .collect()
}

/// A circle through `start`, if any: the modules on it, in order.
fn circle_from(start: &str, edges: &Edges) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in edges.get(&at).into_iter().flatten() {
            if next == start {
                return Some(path.iter().cloned().chain([next.clone()]).collect());
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

#[test]
fn no_two_top_level_modules_import_from_each_other() {
    let mut edges = Edges::new();
    gather(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        None,
        &mut edges,
    );
    assert!(edges.len() > 10, "the walk found the modules: {edges:?}");
    let circles: Vec<_> = edges
        .keys()
        .filter_map(|m| circle_from(m, &edges))
        .collect();
    assert!(circles.is_empty(), "import circles: {circles:?}");
}

#[test]
fn a_planted_circle_is_found() {
    let mut edges = Edges::new();
    for (from, to) in [("grid", "report"), ("report", "solve"), ("solve", "grid")] {
        edges.entry(from.into()).or_default().insert(to.into());
    }
    edges
        .entry("search".into())
        .or_default()
        .insert("grid".into());
    assert_eq!(
        circle_from("grid", &edges),
        Some(
            vec!["grid", "report", "solve", "grid"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(circle_from("search", &edges), None);
}

#[test]
fn edges_come_from_code_not_comments_or_unit_tests() {
    let text = "use crate::grid::Grid;\n/// see [`crate::report`]\nlet x = xlsudoku::solve::x; // crate::batch\n#[cfg(test)]\nmod tests {\n    use crate::logic;\n}\n";
    let names: Vec<String> = code_edges(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["grid"]);
}
