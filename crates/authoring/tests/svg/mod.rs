//! Helpers shared by the picture tests (`picture.rs`, `shapes.rs`): solve a
//! puzzle, draw it, and read the SVG back.

#![allow(dead_code)]

use lights_authoring::picture::{self, Options, Show};
use lights_compiler::solve::Report;
use lights_compiler::{check_source, BlockReport, Puzzle};
use resvg::usvg::roxmltree::{self, Document, Node};

/// The puzzle named `name` of `src` (or the first), checked and solved.
pub(crate) fn solved(src: &str, name: Option<&str>) -> (Puzzle, Option<Report>) {
    let a = check_source(src);
    let p = a.blocks.into_iter().find(|p| name.is_none() || p.name.as_deref() == name).expect("puzzle");
    let model = p.puzzle().cloned().unwrap_or_else(|| panic!("{src}\n{:?}", p.diagnostics));
    (model, p.report.as_ref().and_then(BlockReport::as_lights).cloned())
}

pub(crate) fn draw(p: &Puzzle, r: Option<&Report>, show: Option<Show>, cell: Option<u32>) -> picture::Picture {
    picture::svg(p, r, &Options { show, cell, ..Options::default() }).expect("drawn")
}

pub(crate) fn parse(svg: &str) -> Document<'_> {
    roxmltree::Document::parse(svg).expect("the SVG is well-formed XML")
}

pub(crate) fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Option<Node<'a, 'i>> {
    doc.descendants().find(|n| n.attribute("id") == Some(id))
}

pub(crate) fn children<'a, 'i>(node: Node<'a, 'i>, tag: &str) -> Vec<Node<'a, 'i>> {
    node.children().filter(|n| n.has_tag_name(tag)).collect()
}

pub(crate) fn attr(n: Node, name: &str) -> f64 {
    n.attribute(name).unwrap_or_else(|| panic!("attribute {name}")).parse().expect("a number")
}
