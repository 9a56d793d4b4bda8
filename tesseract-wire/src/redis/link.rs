//! One live link to a Redis relay: one connection that publishes, one subscribed to the peer's channel
//! and read by a thread through [`crate::resp`] (every size bounded: a payload longer than a frame is
//! skipped unread and reported by its length). A link does not reconnect by itself: when it fails,
//! [`super::RedisRelay`] drops it and opens a new one (with backoff).

use std::io::{self, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use redis::{ConnectionAddr, IntoConnectionInfo};

use crate::MAX_FRAME;
use crate::resp::{self, Payload, Reply};

/// How long connecting, and waiting for the answer to a command, may take.
const IO_TIMEOUT: Duration = Duration::from_secs(2);

/// Where the relay is and how to log in, from a `redis://` URL (parsed by the `redis` crate).
#[derive(Clone, Debug)]
pub struct Target {
    addr: Addr,
    username: Option<String>,
    password: Option<String>,
}

#[derive(Clone, Debug)]
enum Addr {
    Tcp(String, u16),
    #[cfg(unix)]
    Unix(std::path::PathBuf),
}

impl Target {
    /// The relay a URL names (`redis://[user:password@]host[:port]`, or `redis+unix:///path`), parsed by
    /// the `redis` crate.
    ///
    /// # Errors
    /// The parser's message for a URL it refuses, or a message for a TLS URL (not supported).
    ///
    /// # Examples
    /// ```
    /// use tesseract_wire::redis::Target;
    /// assert!(Target::from_url("redis://127.0.0.1:6379").is_ok());
    /// assert!(Target::from_url("http://127.0.0.1").is_err());
    /// ```
    pub fn from_url(url: &str) -> Result<Target, String> {
        let info = url.into_connection_info().map_err(|e| e.to_string())?;
        let addr = match info.addr() {
            ConnectionAddr::Tcp(host, port) => Addr::Tcp(host.clone(), *port),
            #[cfg(unix)]
            ConnectionAddr::Unix(path) => Addr::Unix(path.clone()),
            _ => return Err("only redis:// and redis+unix:// relays are supported (no TLS)".to_string()),
        };
        let settings = info.redis_settings();
        Ok(Target {
            addr,
            username: settings.username().map(str::to_string),
            password: settings.password().map(str::to_string),
        })
    }

    fn connect(&self) -> io::Result<Stream> {
        let stream = match &self.addr {
            Addr::Tcp(host, port) => {
                let mut last = io::Error::new(io::ErrorKind::NotFound, format!("{host}: no address"));
                let mut found = None;
                for a in (host.as_str(), *port).to_socket_addrs()? {
                    match TcpStream::connect_timeout(&a, IO_TIMEOUT) {
                        Ok(s) => {
                            found = Some(s);
                            break;
                        }
                        Err(e) => last = e,
                    }
                }
                let s = found.ok_or(last)?;
                s.set_nodelay(true)?;
                Stream::Tcp(s)
            }
            #[cfg(unix)]
            Addr::Unix(path) => Stream::Unix(std::os::unix::net::UnixStream::connect(path)?),
        };
        stream.set_timeouts(Some(IO_TIMEOUT))?;
        Ok(stream)
    }

    /// A connection, logged in.
    fn open(&self) -> Result<(Stream, BufReader<Stream>), String> {
        let stream = self.connect().map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(stream.try_clone().map_err(|e| e.to_string())?);
        let mut writer = stream;
        if let Some(password) = &self.password {
            let mut args: Vec<&[u8]> = vec![b"AUTH"];
            if let Some(user) = &self.username {
                args.push(user.as_bytes());
            }
            args.push(password.as_bytes());
            match command(&mut writer, &mut reader, &args)? {
                Reply::Simple(_) => {}
                other => return Err(format!("AUTH refused: {other:?}")),
            }
        }
        Ok((writer, reader))
    }
}

/// What the subscribed connection delivers.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A payload published on the peer's channel (at most a frame's length).
    Frame(Vec<u8>),
    /// A payload longer than a frame, skipped unread: its length.
    Oversize(u64),
    /// The connection failed: the link is dead.
    Lost(String),
}

/// A live link: publisher and subscriber.
pub(crate) struct Link {
    publisher: (Stream, BufReader<Stream>),
    subscriber: Stream,
    incoming: Receiver<Incoming>,
}

impl Link {
    /// Connects twice, subscribes to `channel` (confirmed before this returns, so that anything published
    /// on it from now on is heard) and starts the thread that reads it.
    pub(crate) fn open(target: &Target, channel: &str) -> Result<Link, String> {
        let publisher = target.open()?;
        let (mut sub_writer, mut sub_reader) = target.open()?;
        match command(&mut sub_writer, &mut sub_reader, &[b"SUBSCRIBE", channel.as_bytes()])? {
            Reply::Array(Some(items)) if items.first() == Some(&Reply::Bulk(Some(b"subscribe".to_vec()))) => {}
            other => return Err(format!("SUBSCRIBE refused: {other:?}")),
        }
        // From here on the thread waits as long as it takes for the next message.
        sub_writer.set_timeouts(None).map_err(|e| e.to_string())?;
        let (tx, incoming) = mpsc::channel();
        let channel = channel.as_bytes().to_vec();
        std::thread::spawn(move || {
            loop {
                let item = match resp::read_reply(&mut sub_reader, MAX_FRAME) {
                    Ok(reply) => match reply.into_message() {
                        Some(m) if m.channel == channel => match m.payload {
                            Payload::Bytes(b) => Incoming::Frame(b),
                            Payload::Oversize(n) => Incoming::Oversize(n),
                        },
                        _ => continue,
                    },
                    Err(e) => Incoming::Lost(e.to_string()),
                };
                let lost = matches!(item, Incoming::Lost(_));
                if tx.send(item).is_err() || lost {
                    return;
                }
            }
        });
        Ok(Link { publisher, subscriber: sub_writer, incoming })
    }

    /// Publishes `payload` on `channel`, and waits for the relay's answer.
    pub(crate) fn publish(&mut self, channel: &str, payload: &[u8]) -> Result<(), String> {
        let (writer, reader) = &mut self.publisher;
        match command(writer, reader, &[b"PUBLISH", channel.as_bytes(), payload])? {
            Reply::Integer(_) => Ok(()),
            other => Err(format!("PUBLISH refused: {other:?}")),
        }
    }

    /// The next thing the subscriber delivered, waiting at most `wait`.
    pub(crate) fn recv(&self, wait: Duration) -> Option<Incoming> {
        match self.incoming.recv_timeout(wait) {
            Ok(item) => Some(item),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Incoming::Lost("the reader stopped".to_string())),
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // Ends the reader thread's wait.
        let _ = self.subscriber.shutdown();
        let _ = self.publisher.0.shutdown();
    }
}

fn command(writer: &mut Stream, reader: &mut BufReader<Stream>, args: &[&[u8]]) -> Result<Reply, String> {
    writer.write_all(&resp::command(args)).map_err(|e| e.to_string())?;
    match resp::read_reply(reader, MAX_FRAME).map_err(|e| e.to_string())? {
        Reply::Error(e) => Err(format!("the relay answered: {e}")),
        reply => Ok(reply),
    }
}

/// A TCP or Unix socket.
#[derive(Debug)]
enum Stream {
    Tcp(TcpStream),
    #[cfg(unix)]
    Unix(std::os::unix::net::UnixStream),
}

impl Stream {
    fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            #[cfg(unix)]
            Stream::Unix(s) => Stream::Unix(s.try_clone()?),
        })
    }

    fn set_timeouts(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_read_timeout(t).and_then(|()| s.set_write_timeout(t)),
            #[cfg(unix)]
            Stream::Unix(s) => s.set_read_timeout(t).and_then(|()| s.set_write_timeout(t)),
        }
    }

    fn shutdown(&self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
            #[cfg(unix)]
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            #[cfg(unix)]
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            #[cfg(unix)]
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            #[cfg(unix)]
            Stream::Unix(s) => s.flush(),
        }
    }
}
