//! The text format of the data files: records of `field: value` lines.
//!
//! ```text
//! # A comment: the whole line is ignored, as are blank lines.
//! study: 1              <- the header field opens a record; its value names the record
//! title: The corner
//! n: 1
//! ```
//!
//! Every line is a comment, a blank line, or `field: value` (the field a lower-case word, then a colon,
//! then the value; spaces around the value are trimmed). A record runs from its header line to the next
//! header line. Each field appears at most once in a record. The format has no escapes and no
//! continuation lines, so a reviewer reads exactly what the program reads, and every error can name its
//! line and field.

/// Why a data file cannot be read. Every variant names the line (counted from 1) and, where there is
/// one, the field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// A line that is not a comment, blank, or `field: value`.
    #[error("line {line}: expected `field: value`, found {text:?}")]
    Syntax {
        /// The line.
        line: usize,
        /// The line's text (cut to 60 characters).
        text: String,
    },
    /// A field before the first header line.
    #[error("line {line}: field `{field}` comes before the first `{header}:` line")]
    Orphan {
        /// The line.
        line: usize,
        /// The field.
        field: String,
        /// The header field that opens a record.
        header: &'static str,
    },
    /// A field that this kind of record does not have.
    #[error("line {line}: unknown field `{field}` (expected one of: {expected})")]
    Unknown {
        /// The line.
        line: usize,
        /// The field.
        field: String,
        /// The fields this kind of record has.
        expected: String,
    },
    /// A field given twice in one record.
    #[error("line {line}: field `{field}` appears twice in the record that starts on line {start}")]
    Duplicate {
        /// The line of the second occurrence.
        line: usize,
        /// The field.
        field: String,
        /// The record's header line.
        start: usize,
    },
    /// A required field is missing.
    #[error("line {start}: the record `{name}` has no field `{field}`")]
    Missing {
        /// The record's header line.
        start: usize,
        /// The record's name (its header value).
        name: String,
        /// The missing field.
        field: &'static str,
    },
    /// Two records with the same name.
    #[error("line {line}: a record named `{name}` already starts on line {first}")]
    DuplicateName {
        /// The line of the second record.
        line: usize,
        /// The name.
        name: String,
        /// The line of the first.
        first: usize,
    },
    /// A value that does not parse or does not make sense.
    #[error("line {line}, field `{field}`: {reason}")]
    Value {
        /// The line.
        line: usize,
        /// The field.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The file holds no record.
    #[error("no `{header}:` record in the text")]
    Empty {
        /// The header field.
        header: &'static str,
    },
}

/// One `field: value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its line, counted from 1.
    pub line: usize,
    /// The field's name.
    pub name: String,
    /// The value, trimmed.
    pub value: String,
}

/// A record: its header line and its fields (the header first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The line of the header field.
    pub start: usize,
    /// The fields in file order, the header first.
    pub fields: Vec<Field>,
}

impl Record {
    /// The record's label: the header's value (its name).
    pub fn label(&self) -> &str {
        &self.fields[0].value
    }

    /// The field called `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The field called `name`.
    ///
    /// # Errors
    /// [`DataError::Missing`] if absent.
    pub fn require(&self, name: &'static str) -> Result<&Field, DataError> {
        self.get(name).ok_or_else(|| DataError::Missing {
            start: self.start,
            name: self.label().to_string(),
            field: name,
        })
    }
}

impl Field {
    /// A [`DataError::Value`] about this field.
    pub fn error(&self, reason: impl Into<String>) -> DataError {
        DataError::Value { line: self.line, field: self.name.clone(), reason: reason.into() }
    }

    /// The value as a number in `range`.
    ///
    /// # Errors
    /// [`DataError::Value`] if it is not a decimal number in the range.
    pub fn number(&self, range: std::ops::RangeInclusive<u32>) -> Result<u32, DataError> {
        let n: u32 =
            self.value.parse().map_err(|_| self.error(format!("expected a number, found {:?}", cut(&self.value))))?;
        if !range.contains(&n) {
            return Err(self.error(format!("{n} is out of range {}..={}", range.start(), range.end())));
        }
        Ok(n)
    }

    /// The value, which must not be empty.
    ///
    /// # Errors
    /// [`DataError::Value`] if it is empty.
    pub fn text(&self) -> Result<String, DataError> {
        if self.value.is_empty() {
            return Err(self.error("the value is empty"));
        }
        Ok(self.value.clone())
    }
}

/// Cuts a text to 60 characters for an error message.
pub(crate) fn cut(text: &str) -> String {
    let mut out: String = text.chars().take(60).collect();
    if text.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// Splits `text` into records opened by `header:` lines, keeping only the fields in `allowed` (which
/// must include `header`).
///
/// # Errors
/// [`DataError`] for a malformed line, a field outside a record, an unknown or repeated field, two records
/// with the same name, or a text without records.
///
/// # Examples
/// ```
/// use tesseract_verify::records::{parse, DataError};
/// let records = parse("# two\nitem: a\nsize: 1\n\nitem: b\n", "item", &["item", "size"])?;
/// assert_eq!(records.len(), 2);
/// assert_eq!(records[1].label(), "b");
/// let err = parse("item: a\ncolor: red\n", "item", &["item", "size"]).unwrap_err();
/// assert_eq!(err.to_string(), "line 2: unknown field `color` (expected one of: item, size)");
/// # Ok::<_, DataError>(())
/// ```
pub fn parse(text: &str, header: &'static str, allowed: &[&str]) -> Result<Vec<Record>, DataError> {
    let mut records: Vec<Record> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((name, value)) = trimmed.split_once(':') else {
            return Err(DataError::Syntax { line, text: cut(trimmed) });
        };
        let name = name.trim_end();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            return Err(DataError::Syntax { line, text: cut(trimmed) });
        }
        if !allowed.contains(&name) {
            return Err(DataError::Unknown { line, field: name.to_string(), expected: allowed.join(", ") });
        }
        let field = Field { line, name: name.to_string(), value: value.trim().to_string() };
        if name == header {
            if field.value.is_empty() {
                return Err(field.error("a record needs a name"));
            }
            if let Some(first) = records.iter().find(|r| r.label() == field.value) {
                return Err(DataError::DuplicateName { line, name: field.value, first: first.start });
            }
            records.push(Record { start: line, fields: vec![field] });
            continue;
        }
        let Some(record) = records.last_mut() else {
            return Err(DataError::Orphan { line, field: name.to_string(), header });
        };
        if record.get(name).is_some() {
            return Err(DataError::Duplicate { line, field: name.to_string(), start: record.start });
        }
        record.fields.push(field);
    }
    if records.is_empty() {
        return Err(DataError::Empty { header });
    }
    Ok(records)
}
