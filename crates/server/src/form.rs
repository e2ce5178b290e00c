//! bcdice-api parameters from a `multipart/form-data` body (RFC 7578): each part with a
//! `Content-Disposition: form-data; name="…"` header is a field; its content is the value,
//! verbatim (multipart values are not percent- or plus-decoded). File parts (with a
//! `filename`) and parts that are not UTF-8 are skipped, as a form field they are not.

/// The fields of `body`, in order, given the request's `Content-Type`; empty when it is
/// not multipart or names no boundary.
pub fn multipart_fields(content_type: &str, body: &[u8]) -> Vec<(String, String)> {
    let Some(boundary) = boundary(content_type) else {
        return Vec::new();
    };
    let delimiter = [b"--", boundary.as_bytes()].concat();
    let mut fields = Vec::new();
    for part in split(body, &delimiter).into_iter().skip(1) {
        if part.starts_with(b"--") {
            break; // the close delimiter
        }
        let part = part.strip_prefix(b"\r\n").unwrap_or(part);
        let part = part.strip_suffix(b"\r\n").unwrap_or(part);
        let Some(at) = find(part, b"\r\n\r\n") else {
            continue;
        };
        let (head, content) = (&part[..at], &part[at + 4..]);
        let Ok(head) = std::str::from_utf8(head) else {
            continue;
        };
        let Some(name) = head.split("\r\n").find_map(field_name) else {
            continue;
        };
        if let Ok(value) = std::str::from_utf8(content) {
            fields.push((name, value.to_string()));
        }
    }
    fields
}

/// The `boundary` parameter of a `multipart/form-data` content type.
fn boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    let kind = params.next()?.trim();
    if !kind.eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.find_map(|p| {
        let (key, value) = p.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("boundary")
            .then(|| value.trim().trim_matches('"').to_string())
            .filter(|b| !b.is_empty() && b.len() <= 70)
    })
}

/// The field name of a `Content-Disposition: form-data; name="…"` header line; `None`
/// for other headers and for file parts.
fn field_name(header: &str) -> Option<String> {
    let (key, value) = header.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("content-disposition") {
        return None;
    }
    let mut params = value.split(';').map(str::trim);
    if !params.next()?.eq_ignore_ascii_case("form-data") {
        return None;
    }
    let mut name = None;
    for p in params {
        let (k, v) = p.split_once('=')?;
        match k.trim().to_ascii_lowercase().as_str() {
            "name" => name = Some(v.trim().trim_matches('"').to_string()),
            "filename" | "filename*" => return None,
            _ => {}
        }
    }
    name
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split<'a>(mut body: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    while let Some(at) = find(body, delimiter) {
        parts.push(&body[..at]);
        body = &body[at + delimiter.len()..];
    }
    parts.push(body);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPE: &str = "multipart/form-data; boundary=----x1";

    fn body(parts: &[(&str, &str)]) -> Vec<u8> {
        let mut b = String::new();
        for (disposition, value) in parts {
            b.push_str(&format!(
                "------x1\r\nContent-Disposition: {disposition}\r\n\r\n{value}\r\n"
            ));
        }
        b.push_str("------x1--\r\n");
        b.into_bytes()
    }

    #[test]
    fn fields_are_read_verbatim_in_order() {
        let b = body(&[
            ("form-data; name=\"command\"", "2d6+1 判定"),
            ("form-data; name=\"other\"", "a\r\nb"),
        ]);
        assert_eq!(
            multipart_fields(TYPE, &b),
            vec![
                ("command".to_string(), "2d6+1 判定".to_string()),
                ("other".to_string(), "a\r\nb".to_string())
            ]
        );
    }

    #[test]
    fn files_other_types_and_garbage_give_nothing() {
        let file = body(&[("form-data; name=\"command\"; filename=\"a.txt\"", "2D6")]);
        assert!(multipart_fields(TYPE, &file).is_empty());
        let b = body(&[("form-data; name=\"command\"", "2D6")]);
        assert!(multipart_fields("application/x-www-form-urlencoded", &b).is_empty());
        assert!(multipart_fields("multipart/form-data", &b).is_empty());
        for junk in [
            &b""[..],
            b"------x1",
            b"------x1\r\n\r\n",
            b"\xff\xfe",
            b"------x1--",
        ] {
            assert!(multipart_fields(TYPE, junk).is_empty());
        }
        // A quoted boundary, upper-case type.
        let quoted = "Multipart/Form-Data; boundary=\"----x1\"";
        assert_eq!(multipart_fields(quoted, &b).len(), 1);
    }
}
