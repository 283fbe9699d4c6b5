//! Chains in words.

use crate::logic::words::Words;
use crate::logic::{ChainNode, Step, Technique};

/// The family's steps in words (`None`: the generic words).
pub(in crate::logic) fn say(step: &Step, w: &Words) -> Option<String> {
    let name = step.technique.name();
    let removes = w.removes(&step.eliminated);
    Some(match (step.technique, step.placed) {
        (
            Technique::XChain
            | Technique::XyChain
            | Technique::NiceLoop
            | Technique::GroupedNiceLoop,
            None,
        ) if step.chains.first().is_some_and(|c| c.len() >= 2) => {
            let chain = &step.chains[0];
            let (first, last) = (&chain[0], &chain[chain.len() - 1]);
            let on_digit = if step.technique == Technique::XChain {
                format!(" on {}", w.digit(first.digit))
            } else {
                String::new()
            };
            // The chain starts from its first node false and ends with its
            // last true: one of the two holds.
            let first_true = ChainNode {
                on: true,
                ..first.clone()
            };
            if first.digit == last.digit && first.cells == last.cells {
                // A loop back to its start: were the start false, the chain
                // would make it true, so it is true.
                let start_false = ChainNode {
                    on: false,
                    ..first.clone()
                };
                return Some(format!(
                    "{name}{on_digit}: {}: if {}, then {}; so {}: {removes}",
                    w.chain_text(chain),
                    w.node_is(&start_false),
                    w.node_is(&first_true),
                    w.node_is(&first_true)
                ));
            }
            format!(
                "{name}{on_digit}: {}: {} or {}: {removes}",
                w.chain_text(chain),
                w.node_is(&first_true),
                w.node_is(last)
            )
        }
        _ => return None,
    })
}
