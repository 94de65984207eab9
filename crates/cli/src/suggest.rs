//! Values for shell completion of flags that take a name or something
//! freer: `--rule` (a name, or a stencil), `--topology`, `--graph` (a name,
//! or `cycle:N`). clap's completion scripts list an argument's possible
//! values; without them they fall back to file names. [`Suggesting`] gives
//! the names as possible values while the flag's own parser still decides
//! what is accepted (so stencils and sizes keep working), and the args hide
//! the list from `--help`, whose text already names them.

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use lights_compiler::graph::NAMED_GRAPHS;
use lights_compiler::model::{Rule, Topology};

/// `inner` as the parser, `names` as the values completions offer.
#[derive(Clone)]
pub(crate) struct Suggesting<P> {
    inner: P,
    names: fn() -> Vec<&'static str>,
}

impl<P: TypedValueParser> TypedValueParser for Suggesting<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.names)().into_iter().map(PossibleValue::new)))
    }
}

fn rule_names() -> Vec<&'static str> {
    Rule::NAMES.to_vec()
}

fn topology_names() -> Vec<&'static str> {
    Topology::NAMES.to_vec()
}

fn graph_names() -> Vec<&'static str> {
    NAMED_GRAPHS.iter().map(|(name, _)| *name).collect()
}

fn graph_family_names() -> Vec<&'static str> {
    NAMED_GRAPHS.iter().filter(|(_, sized)| *sized).map(|(name, _)| *name).collect()
}

/// `--rule` as a string: the rule names, or a stencil.
pub(crate) fn rule() -> Suggesting<StringValueParser> {
    Suggesting { inner: StringValueParser::new(), names: rule_names }
}

/// `--topology` with its parser.
pub(crate) fn topology_with<P: TypedValueParser>(inner: P) -> Suggesting<P> {
    Suggesting { inner, names: topology_names }
}

/// `--graph NAME[:N]` with its parser.
pub(crate) fn graph_with<P: TypedValueParser>(inner: P) -> Suggesting<P> {
    Suggesting { inner, names: graph_names }
}

/// `--graph FAMILY` (the graphs that take a size), as a string.
pub(crate) fn graph_family() -> Suggesting<StringValueParser> {
    Suggesting { inner: StringValueParser::new(), names: graph_family_names }
}
