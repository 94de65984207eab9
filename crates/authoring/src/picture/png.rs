//! PNG rendering of a picture's SVG through resvg.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::{PictureError, MAX_PNG_PIXELS};

/// A rendered PNG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Png {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Whether any font was found to draw the text with (without one the
    /// picture has no text).
    pub has_fonts: bool,
}

/// The system's fonts, loaded once; the sans-serif family is set to the
/// first available of the picture's preferred faces.
pub(super) fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS_DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS_DB
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            let has = |name: &str| db.faces().any(|f| f.families.iter().any(|(n, _)| n == name));
            let preferred = ["DejaVu Sans", "Verdana", "Arial", "Helvetica", "Liberation Sans", "Noto Sans"];
            let family = preferred
                .iter()
                .find(|n| has(n))
                .map(std::string::ToString::to_string)
                .or_else(|| db.faces().next().and_then(|f| f.families.first()).map(|(n, _)| n.clone()));
            if let Some(family) = family {
                db.set_sans_serif_family(family.clone());
                db.set_serif_family(family);
            }
            Arc::new(db)
        })
        .clone()
}

/// Render an SVG (such as [`svg`]'s) to PNG bytes: usvg parses it, resvg
/// draws it into a tiny-skia pixmap, which encodes itself as PNG.
///
/// The pixel cap is checked on the root's `width` and `height` before the
/// SVG is parsed: parsing lays out every text (a 200,000-character name
/// took seconds and hundreds of megabytes) only to be refused.
pub fn png(svg: &str) -> Result<Png, PictureError> {
    if let Some((width, height)) = root_size(svg) {
        if width.saturating_mul(height) > MAX_PNG_PIXELS {
            return Err(PictureError::ImageTooLarge { width, height });
        }
    }
    let db = fonts();
    let has_fonts = !db.is_empty();
    let options = usvg::Options { fontdb: db, ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Render(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if u64::from(width) * u64::from(height) > MAX_PNG_PIXELS {
        return Err(PictureError::ImageTooLarge { width: width.into(), height: height.into() });
    }
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| PictureError::Render(format!("cannot allocate a {width}×{height} image")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let data = pixmap.encode_png().map_err(|e| PictureError::Render(e.to_string()))?;
    Ok(Png { data, width, height, has_fonts })
}

/// The `width` and `height` of the root `<svg …>` tag, when both are whole
/// numbers (as [`svg`] writes them); `None` otherwise (usvg then decides).
pub(super) fn root_size(svg: &str) -> Option<(u64, u64)> {
    let start = svg.find("<svg")?;
    let tag = &svg[start..start + svg[start..].find('>')?];
    let attribute = |name: &str| -> Option<u64> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        tag[at..].split('"').next()?.parse().ok()
    };
    Some((attribute("width")?, attribute("height")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pixel_cap_is_checked_before_the_svg_is_parsed() {
        // Past the root tag this is not even SVG: parsing it would fail, so
        // an ImageTooLarge answer shows nothing was parsed or laid out.
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="2000000" height="300">{}"#,
            "<text>".repeat(1000)
        );
        assert!(matches!(png(&svg), Err(PictureError::ImageTooLarge { width: 2_000_000, height: 300 })));
        assert_eq!(root_size(r#"<?xml?><svg width="12" viewBox="0 0 1 1" height="34">"#), Some((12, 34)));
        assert_eq!(root_size(r#"<svg width="1.5" height="3">"#), None);
        assert_eq!(root_size("<svg width=\"1\""), None);
    }
}
