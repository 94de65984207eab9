//! Who `lights play` answers: requests made to its own address by the page
//! it serves (or by a tool such as curl), never by another site's page.
//!
//! - DNS rebinding: a page of another site whose name was pointed at
//!   127.0.0.1 names its own host, so the one `Host` header must be this
//!   server's address (a request with none, several or one that is not text
//!   is refused too, as HTTP/1.1 requires).
//! - Cross-site requests: another site's page cannot read the answers (no
//!   CORS headers), but could still make the server work (an `<img>` of the
//!   puzzle list, a form posted to `…/solve`). Browsers say where a request
//!   comes from (`Origin` on posts, `Sec-Fetch-Site` on every request): only
//!   this server's own origin, and navigation typed by the user, are let in.
//!   Each of these headers must come at most once: a second value is not
//!   looked at by whoever reads the first, so a repeated one is refused (400).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{error, Failure, Shared};

/// Why a request is not answered, if it is not.
fn refusal(hosts: &[String], headers: &HeaderMap) -> Option<Failure> {
    let named: Vec<_> = headers.get_all(header::HOST).iter().collect();
    let host = match named.as_slice() {
        [] => return Some(error(StatusCode::BAD_REQUEST, format!("a request must name its host ({})", hosts[0]))),
        [one] => one.to_str().ok(),
        _ => return Some(error(StatusCode::BAD_REQUEST, "a request must name one host, not several")),
    };
    let Some(host) = host else {
        return Some(error(StatusCode::BAD_REQUEST, "the Host header is not text"));
    };
    if !hosts.iter().any(|ok| ok.eq_ignore_ascii_case(host)) {
        return Some(error(StatusCode::FORBIDDEN, format!("this server answers as {} only, not {host}", hosts[0])));
    }
    let own_origin = |origin: &str| hosts.iter().any(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
    for name in [header::ORIGIN.as_str(), "sec-fetch-site"] {
        if headers.get_all(name).iter().nth(1).is_some() {
            return Some(error(StatusCode::BAD_REQUEST, format!("a request must send {name} once, not several times")));
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        if !origin.to_str().is_ok_and(own_origin) {
            return Some(error(StatusCode::FORBIDDEN, "requests from pages of other sites are refused"));
        }
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        if !matches!(site.to_str(), Ok("same-origin" | "none")) {
            return Some(error(StatusCode::FORBIDDEN, "requests from pages of other sites are refused"));
        }
    }
    None
}

/// The middleware: refused requests get a JSON 400 or 403.
pub(super) async fn own_site(State(served): State<Shared>, request: Request, next: Next) -> Response {
    match refusal(&served.hosts, request.headers()) {
        Some(failure) => failure.into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn hosts() -> Vec<String> {
        vec!["127.0.0.1:8080".into(), "localhost:8080".into()]
    }

    fn check(pairs: &[(&str, &[u8])]) -> Option<(StatusCode, String)> {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_bytes(value).unwrap(),
            );
        }
        refusal(&hosts(), &headers).map(|f| (f.status, f.message))
    }

    #[test]
    fn own_address_only() {
        assert_eq!(check(&[("host", b"127.0.0.1:8080")]), None);
        assert_eq!(check(&[("host", b"LOCALHOST:8080")]), None);
        let (status, message) = check(&[("host", b"evil.com:8080")]).unwrap();
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(message, "this server answers as 127.0.0.1:8080 only, not evil.com:8080");
        assert_eq!(check(&[("host", b"127.0.0.1")]).unwrap().0, StatusCode::FORBIDDEN);
    }

    #[test]
    fn missing_repeated_or_binary_hosts_are_bad_requests() {
        assert_eq!(check(&[]).unwrap().0, StatusCode::BAD_REQUEST);
        let twice = check(&[("host", b"127.0.0.1:8080"), ("host", b"evil.com")]).unwrap();
        assert_eq!(twice, (StatusCode::BAD_REQUEST, "a request must name one host, not several".into()));
        assert_eq!(check(&[("host", b"\xffevil.com")]).unwrap().0, StatusCode::BAD_REQUEST);
    }

    #[test]
    fn repeated_guard_headers_are_bad_requests() {
        let host: (&str, &[u8]) = ("host", b"127.0.0.1:8080");
        let own: (&str, &[u8]) = ("origin", b"http://127.0.0.1:8080");
        let evil: (&str, &[u8]) = ("origin", b"http://evil.example");
        let same: (&str, &[u8]) = ("sec-fetch-site", b"same-origin");
        let cross: (&str, &[u8]) = ("sec-fetch-site", b"cross-site");
        // The first value alone would be let in: the second must not hide behind it.
        for repeated in [[host, own, evil], [host, own, own], [host, same, cross], [host, same, same]] {
            let (status, message) = check(&repeated).unwrap();
            assert_eq!(status, StatusCode::BAD_REQUEST, "{repeated:?}");
            assert!(message.contains("once, not several times"), "{message}");
        }
    }

    #[test]
    fn other_sites_pages_are_refused() {
        let host: (&str, &[u8]) = ("host", b"127.0.0.1:8080");
        assert_eq!(check(&[host, ("origin", b"http://127.0.0.1:8080")]), None);
        assert_eq!(check(&[host, ("origin", b"http://localhost:8080")]), None);
        assert_eq!(check(&[host, ("sec-fetch-site", b"same-origin")]), None);
        assert_eq!(check(&[host, ("sec-fetch-site", b"none")]), None);
        for refused in [
            [host, ("origin", b"http://evil.example")],
            [host, ("origin", b"null")],
            [host, ("origin", b"http://127.0.0.1:9090")],
            [host, ("sec-fetch-site", b"cross-site")],
            [host, ("sec-fetch-site", b"same-site")],
        ] {
            assert_eq!(check(&refused).map(|r| r.0), Some(StatusCode::FORBIDDEN), "{refused:?}");
        }
    }
}
