//! Shared helpers of the relay's tests: a relay in this process on a free loopback port, WebSocket
//! clients, a minimal HTTP client.

// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

pub mod game;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use tesseract_relay::{Config, Relay};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client's WebSocket.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a test waits for something that should happen.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A relay serving in this process, stopped by [`Server::stop`] (or when the test's runtime ends).
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), tesseract_relay::Error>>>,
}

impl Server {
    /// Starts a relay with `config` (its `listen` is used as given: 127.0.0.1:0 unless a test says).
    pub async fn start(config: Config) -> Server {
        let relay = Relay::bind(config).await.expect("the relay starts");
        let addr = relay.local_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(relay.serve(async move {
            let _ = stopped.await;
        }));
        Server { addr, stop: Some(stop), task: Some(task) }
    }

    /// Stops the relay and waits until it has closed its socket and connections.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let task = self.task.take().unwrap();
        tokio::time::timeout(PATIENCE, task).await.expect("the relay stops in time").unwrap().unwrap();
    }

    /// A WebSocket client joined to match `id`, from a loopback address of its own
    /// ([`client_address`]): each client of a match is another host.
    pub async fn join(&self, id: &str) -> Ws {
        join_from(client_address(), self.addr, id).await
    }

    /// `GET path`: status and body.
    pub async fn get(&self, path: &str) -> (u16, String) {
        let (status, _, body) = http(self.addr, "GET", path, &[]).await;
        (status, body)
    }

    /// Waits until `/stats` says `value` for `key`.
    pub async fn wait_for_stat(&self, key: &str, value: u64) {
        let deadline = std::time::Instant::now() + PATIENCE;
        while self.stats().await[key] != value {
            assert!(std::time::Instant::now() < deadline, "/stats never said {key} {value}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The counters of `/stats`.
    pub async fn stats(&self) -> serde_json::Value {
        let (status, body) = self.get("/stats").await;
        assert_eq!(status, 200);
        serde_json::from_str(&body).expect("/stats is JSON")
    }
}

/// The settings of a test relay: loopback, any free port, the binary's defaults otherwise.
pub fn config() -> Config {
    Config { listen: "127.0.0.1:0".parse().unwrap(), ..Config::default() }
}

/// A loopback address no other call in this test process returns (127.1.0.1, 127.1.0.2, ...).
pub fn client_address() -> IpAddr {
    static NEXT: AtomicU32 = AtomicU32::new(1);
    IpAddr::from(Ipv4Addr::from(0x7f01_0000 + NEXT.fetch_add(1, Ordering::Relaxed)))
}

/// A WebSocket client from `from` joined to match `id` of the relay at `addr`.
pub async fn join_from(from: IpAddr, addr: SocketAddr, id: &str) -> Ws {
    try_join_from(from, addr, id).await.unwrap_or_else(|refusal| panic!("the upgrade was refused: {refusal:?}"))
}

/// A WebSocket client from 127.0.0.1 joined to match `id` of the relay at `addr`.
pub async fn join(addr: SocketAddr, id: &str) -> Ws {
    let (ws, response) =
        tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(format!("ws://{addr}/match/{id}")))
            .await
            .expect("the upgrade answers in time")
            .expect("the upgrade succeeds");
    assert_eq!(response.status(), 101);
    ws
}

/// The next data message (binary, text or close), skipping pings and pongs; `None` when the connection
/// ended without one.
pub async fn next(ws: &mut Ws) -> Option<Message> {
    tokio::time::timeout(PATIENCE, async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(message)) => return Some(message),
                Some(Err(_)) | None => return None,
            }
        }
    })
    .await
    .expect("a message comes in time")
}

/// The next message, which must be this binary frame.
pub async fn expect_frame(ws: &mut Ws, frame: &[u8]) {
    match next(ws).await {
        Some(Message::Binary(got)) => assert_eq!(&got[..], frame),
        other => panic!("expected a frame of {} bytes, got {other:?}", frame.len()),
    }
}

/// The next message, which must be the text `joined`.
pub async fn expect_joined(ws: &mut Ws) {
    match next(ws).await {
        Some(Message::Text(text)) => assert_eq!(text.as_str(), "joined"),
        other => panic!("expected joined, got {other:?}"),
    }
}

/// How often the relay sends a connection `joined` at most.
pub const JOINED_EVERY: Duration = Duration::from_secs(1);

/// The `joined` owed after joins: at least one comes, and a second may follow within [`JOINED_EVERY`]
/// (the joins that come within a second of a `joined` are told by one `joined` when it is up). Returns
/// how many came, once none came for a little more than [`JOINED_EVERY`]; anything else is a failure.
pub async fn expect_joined_settled(ws: &mut Ws) -> usize {
    expect_joined(ws).await;
    let mut count = 1;
    while let Ok(message) = tokio::time::timeout(JOINED_EVERY + Duration::from_millis(300), next(ws)).await {
        match message {
            Some(Message::Text(text)) if text.as_str() == "joined" => count += 1,
            other => panic!("expected joined or silence, got {other:?}"),
        }
    }
    count
}

/// The next message, which must be a close frame: its code and reason.
pub async fn expect_close(ws: &mut Ws) -> (u16, String) {
    match next(ws).await {
        Some(Message::Close(Some(frame))) => (u16::from(frame.code), frame.reason.as_str().to_string()),
        other => panic!("expected a close frame, got {other:?}"),
    }
}

/// The next binary message, skipping `joined` (which others' joins may cause): it must be `frame`.
pub async fn expect_frame_past_joined(ws: &mut Ws, frame: &[u8]) {
    loop {
        match next(ws).await {
            Some(Message::Text(t)) if t.as_str() == "joined" => continue,
            Some(Message::Binary(got)) => return assert_eq!(&got[..], frame),
            other => panic!("expected a frame, got {other:?}"),
        }
    }
}

/// The reason of 4009 for a connection replaced by a newer one of its address.
pub const REPLACED_SAME: &str = "replaced by a newer connection from this address";
/// The reason of 4009 for a connection of the address holding the most places of a full match.
pub const REPLACED_OVER_SHARE: &str = "replaced: this address holds the most places of the full match";

/// The close frame that ends `ws`, past any frames and `joined` before it: its code and reason.
pub async fn close_past_messages(ws: &mut Ws) -> (u16, String) {
    loop {
        match next(ws).await {
            Some(Message::Binary(_)) => continue,
            Some(Message::Text(t)) if t.as_str() == "joined" => continue,
            Some(Message::Close(Some(frame))) => return (u16::from(frame.code), frame.reason.as_str().to_string()),
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

/// Nothing but pings and pongs arrives for `time`.
pub async fn expect_silence(ws: &mut Ws, time: Duration) {
    let got = tokio::time::timeout(time, async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => return other,
            }
        }
    })
    .await;
    if let Ok(message) = got {
        panic!("expected silence, got {message:?}");
    }
}

/// Sends one binary frame.
pub async fn send(ws: &mut Ws, frame: &[u8]) {
    ws.send(Message::binary(frame.to_vec())).await.expect("the frame is sent");
}

/// A frame of `len` bytes numbered `n`.
pub fn frame(n: u32, len: usize) -> Vec<u8> {
    let mut f = n.to_be_bytes().to_vec();
    f.extend((0..len.saturating_sub(4)).map(|i| (i as u32 ^ n) as u8));
    f.truncate(len);
    f
}

/// One HTTP/1.1 request on a fresh connection (`Connection: close` unless `headers` has a `Connection`
/// header), read to the end: status, headers (lower-case names), body.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
) -> (u16, Vec<(String, String)>, String) {
    http_on(TcpStream::connect(addr).await.unwrap(), addr, method, path, headers).await
}

/// [`http`] on a connection already open (such as one from [`connect_from`]).
pub async fn http_on(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
) -> (u16, Vec<(String, String)>, String) {
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    if !headers.iter().any(|h| h.to_ascii_lowercase().starts_with("connection:")) {
        request.push_str("Connection: close\r\n");
    }
    for h in headers {
        request.push_str(h);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::timeout(PATIENCE, read_answer(&mut stream, method == "HEAD")).await.expect("the answer comes in time")
}

/// Reads an HTTP answer: its head, then a body of its `content-length` (none for HEAD), or to the end.
async fn read_answer(stream: &mut TcpStream, head_only: bool) -> (u16, Vec<(String, String)>, String) {
    let head = read_head(stream).await;
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length = headers.iter().find(|(k, _)| k == "content-length").map(|(_, v)| v.parse::<usize>().unwrap());
    let mut body = Vec::new();
    match length {
        _ if head_only => {}
        Some(length) => {
            body.resize(length, 0);
            stream.read_exact(&mut body).await.unwrap();
        }
        None => {
            stream.read_to_end(&mut body).await.unwrap();
        }
    }
    (status, headers, String::from_utf8(body).unwrap())
}

/// The headers of a WebSocket upgrade request.
pub const UPGRADE: [&str; 4] = [
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Version: 13",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
];

/// A TCP connection to `addr` from the loopback address `from` (any of 127.0.0.0/8 on Linux), so that
/// a test can be several clients' addresses.
pub async fn connect_from(from: IpAddr, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    socket.connect(addr).await.unwrap()
}

/// A WebSocket client of match `id` connecting from `from`: the socket, or the HTTP status and body of
/// the refusal.
pub async fn try_join_from(from: IpAddr, addr: SocketAddr, id: &str) -> Result<Ws, (u16, String)> {
    let tcp = connect_from(from, addr).await;
    let url = format!("ws://{addr}/match/{id}");
    let attempt = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp));
    match tokio::time::timeout(PATIENCE, attempt).await.expect("the upgrade answers in time") {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().as_deref().map(|b| String::from_utf8_lossy(b).to_string()).unwrap_or_default();
            Err((response.status().as_u16(), body))
        }
        Err(e) => panic!("the upgrade failed: {e}"),
    }
}

/// A raw TCP connection upgraded to a WebSocket on match `id` (the 101 read, nothing else).
pub async fn raw_join(addr: SocketAddr, id: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET /match/{id} HTTP/1.1\r\nHost: {addr}\r\n{}\r\n\r\n", UPGRADE.join("\r\n"));
    tcp.write_all(request.as_bytes()).await.unwrap();
    let head = read_head(&mut tcp).await;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    tcp
}

/// Reads an HTTP answer's head, up to and with its empty line, and not a byte more.
pub async fn read_head(tcp: &mut TcpStream) -> String {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8];
        tcp.read_exact(&mut byte).await.expect("a complete head");
        head.push(byte[0]);
    }
    String::from_utf8(head).unwrap()
}

/// A client frame as bytes: the first byte (FIN, RSV and opcode bits) as given, masked with a zero mask
/// unless `masked` is false.
pub fn raw_frame(first: u8, payload: &[u8], masked: bool) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mut f = vec![first, payload.len() as u8 | if masked { 0x80 } else { 0 }];
    if masked {
        f.extend_from_slice(&[0; 4]);
    }
    f.extend_from_slice(payload);
    f
}

/// Reads the server's frames on a raw connection until its close frame: the close code and reason
/// (`None` if the connection ended without one).
pub async fn raw_close(tcp: &mut TcpStream) -> Option<(u16, String)> {
    tokio::time::timeout(PATIENCE, async {
        loop {
            let mut head = [0u8; 2];
            tcp.read_exact(&mut head).await.ok()?;
            let len = match head[1] & 0x7f {
                126 => {
                    let mut b = [0u8; 2];
                    tcp.read_exact(&mut b).await.ok()?;
                    u64::from(u16::from_be_bytes(b))
                }
                127 => {
                    let mut b = [0u8; 8];
                    tcp.read_exact(&mut b).await.ok()?;
                    u64::from_be_bytes(b)
                }
                n => u64::from(n),
            };
            let mut payload = vec![0u8; len as usize];
            tcp.read_exact(&mut payload).await.ok()?;
            if head[0] & 0x0f == 0x8 {
                let code = u16::from_be_bytes([payload[0], payload[1]]);
                return Some((code, String::from_utf8_lossy(&payload[2..]).to_string()));
            }
        }
    })
    .await
    .expect("the relay closes in time")
}

/// Waits until the relay has closed `tcp` (a read gives the end or an error): how long it took.
pub async fn closed_by_relay(tcp: &mut TcpStream, patience: Duration) -> Duration {
    let start = std::time::Instant::now();
    let mut buf = [0u8; 1024];
    tokio::time::timeout(patience, async {
        while let Ok(n) = tcp.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    })
    .await
    .expect("the relay closes the socket in time");
    start.elapsed()
}
