//! Project Wycheproof vectors (through the protocol's own decoding and MAC paths) and RFC 4231.

use tesseract_wire::KeyError;
use tesseract_wire::testkit::{ecdh_p256, hkdf_sha256, hmac_sha256, hmac_sha256_verify};
use wycheproof::TestResult;

/// A Wycheproof private key (big-endian, possibly with a leading zero byte or short) as 32 bytes.
fn scalar(bytes: &[u8]) -> [u8; 32] {
    let start = bytes.len().saturating_sub(32);
    assert!(bytes[..start].iter().all(|&b| b == 0), "private key wider than 32 bytes");
    let mut out = [0; 32];
    out[32 - (bytes.len() - start)..].copy_from_slice(&bytes[start..]);
    out
}

#[test]
fn wycheproof_ecdh_secp256r1_ecpoint_through_our_key_decoding() {
    let set = wycheproof::ecdh::TestSet::load(wycheproof::ecdh::TestName::EcdhSecp256r1Ecpoint).unwrap();
    let (mut valid, mut invalid, mut acceptable_refused) = (0, 0, 0);
    for t in set.test_groups.iter().flat_map(|g| &g.tests) {
        let got = ecdh_p256(&scalar(&t.private_key), &t.public_key);
        match (t.result, got) {
            (TestResult::Valid, Ok(shared)) => {
                assert_eq!(&shared[..], &t.shared_secret[..], "tc {} {}", t.tc_id, t.comment);
                valid += 1;
            }
            (TestResult::Valid, Err(e)) => panic!("tc {} ({}) must pass: {e}", t.tc_id, t.comment),
            (TestResult::Invalid, Ok(_)) => panic!("tc {} ({}) must be refused", t.tc_id, t.comment),
            (TestResult::Invalid, Err(_)) => invalid += 1,
            // The one acceptable case is a compressed point: this protocol refuses every form but 0x04.
            (TestResult::Acceptable, Err(KeyError::Length { found: 33 })) => acceptable_refused += 1,
            (TestResult::Acceptable, Ok(shared)) => assert_eq!(&shared[..], &t.shared_secret[..]),
            (TestResult::Acceptable, Err(e)) => panic!("tc {}: unexpected refusal {e}", t.tc_id),
        }
    }
    assert_eq!((valid, invalid, acceptable_refused), (330, 24, 1));
    assert_eq!(valid + invalid + acceptable_refused, set.number_of_tests);
}

#[test]
fn wycheproof_hmac_sha256() {
    let set = wycheproof::mac::TestSet::load(wycheproof::mac::TestName::HmacSha256).unwrap();
    let mut n = 0;
    for g in &set.test_groups {
        for t in &g.tests {
            let ok = hmac_sha256_verify(&t.key, &t.msg, &t.tag);
            assert_eq!(ok, t.result == TestResult::Valid, "tc {} {}", t.tc_id, t.comment);
            if t.result == TestResult::Valid {
                assert_eq!(&hmac_sha256(&t.key, &t.msg)[..t.tag.len()], &t.tag[..]);
            }
            assert_eq!(t.tag.len() * 8, g.tag_size);
            n += 1;
        }
    }
    assert_eq!(n, 174);
}

#[test]
fn wycheproof_hkdf_sha256() {
    let set = wycheproof::hkdf::TestSet::load(wycheproof::hkdf::TestName::HkdfSha256).unwrap();
    let mut n = 0;
    for t in set.test_groups.iter().flat_map(|g| &g.tests) {
        let mut okm = vec![0; t.size];
        let got = hkdf_sha256(Some(&t.salt), &t.ikm, &t.info, &mut okm);
        match t.result {
            TestResult::Valid | TestResult::Acceptable => {
                assert!(got.is_ok(), "tc {}", t.tc_id);
                assert_eq!(&okm[..], &t.okm[..], "tc {} {}", t.tc_id, t.comment);
            }
            TestResult::Invalid => assert!(got.is_err(), "tc {} {}", t.tc_id, t.comment),
        }
        n += 1;
    }
    assert_eq!(n, 86);
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// RFC 4231, HMAC-SHA-256, test cases 1 to 7 (case 5 truncated to 128 bits).
#[test]
fn rfc4231_hmac_sha256() {
    let long_key = vec![0xaa; 131];
    let cases: [(Vec<u8>, Vec<u8>, &str); 7] = [
        (vec![0x0b; 20], b"Hi There".to_vec(), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (b"Jefe".to_vec(), b"what do ya want for nothing?".to_vec(), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (vec![0xaa; 20], vec![0xdd; 50], "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ((1..=25).collect(), vec![0xcd; 50], "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (vec![0x0c; 20], b"Test With Truncation".to_vec(), "a3b6167473100ee06e0c796c2955552b"),
        (
            long_key.clone(),
            b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec(),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        ),
        (
            long_key,
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                .to_vec(),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
        ),
    ];
    for (i, (key, data, expected)) in cases.iter().enumerate() {
        let expected = unhex(expected);
        let tag = hmac_sha256(key, data);
        assert_eq!(&tag[..expected.len()], &expected[..], "RFC 4231 case {}", i + 1);
        assert!(hmac_sha256_verify(key, data, &expected), "RFC 4231 case {}", i + 1);
        let mut wrong = expected.clone();
        wrong[0] ^= 1;
        assert!(!hmac_sha256_verify(key, data, &wrong));
    }
}
