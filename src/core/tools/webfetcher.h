#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <QCoroTask>

#include <chrono>
#include <functional>
#include <optional>
#include <utility>

class QDeadlineTimer;
class QHostAddress;
class QHostInfo;
class QNetworkAccessManager;
class QNetworkReply;

namespace Sandpiper {

struct FetchRequest {
    QUrl url;
    QByteArray method = "GET";
    QByteArray body;
    QList<std::pair<QByteArray, QByteArray>> headers;
    // Off only for the search endpoints in the settings: the user chose those, and a
    // self-hosted SearXNG usually lives on their own network. Everything a model names is
    // checked.
    bool checkAddresses = true;
    // Asked when the head of the final response arrives: false skips the body (e.g. a PDF
    // that would be refused anyway), so nothing more is downloaded.
    std::function<bool(const QByteArray &contentType)> wantsBody;
};

struct FetchResult {
    enum class Error {
        None,
        InvalidUrl,
        Refused,        // the address policy said no: nothing was sent
        HostNotFound,   // DNS
        ConnectTimeout, // no response head in time (DNS and connecting included)
        Timeout,        // the whole fetch took too long
        TooManyRedirects,
        Network, // refused connections, TLS failures, resets
        Cancelled,
    };

    Error error = Error::None;
    QString message;       // what went wrong, in words for people and models; empty when it worked
    QUrl url;              // the last URL asked for: where the redirects led
    QList<QUrl> redirects; // the URLs that redirected, in order
    int status = 0;
    QByteArray reason;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool truncated = false;   // the body was cut at the size limit
    bool bodySkipped = false; // FetchRequest::wantsBody declined it

    bool ok() const { return error == Error::None; }
    QByteArray header(QByteArrayView name) const;
    QByteArray contentType() const { return header("content-type"); }
};

// HTTP for the web tools, made safe to point at addresses a model chose: only http and https;
// every host (the first and each redirect's) is resolved here and checked against the
// AddressPolicy before anything is sent; the connection then goes to the checked address, so
// a second DNS answer cannot swap in another one; redirects are followed by hand (at most
// maxRedirects); the body is read up to maxBytes and no further; every wait has a timeout;
// no cookies are kept or sent.
class WebFetcher : public QObject
{
    Q_OBJECT

public:
    struct Limits {
        bool allowLocal = false;
        int maxRedirects = 5;
        qint64 maxBytes = 2 * 1024 * 1024;
        std::chrono::milliseconds connectTimeout{std::chrono::seconds(10)};
        std::chrono::milliseconds totalTimeout{std::chrono::seconds(30)};
    };

    explicit WebFetcher(Limits limits, QObject *parent = nullptr);
    ~WebFetcher() override;

    QCoro::Task<FetchResult> fetch(FetchRequest request);
    // Ends the fetch in progress at once; it returns Error::Cancelled.
    void cancel();

    static QByteArray userAgent();

Q_SIGNALS:
    // Internal: wakes a DNS wait (an answer came, or a cancel).
    void wake();

private:
    struct Exchange;

    QCoro::Task<std::optional<QHostInfo>> lookUp(QString host, std::chrono::milliseconds timeout);
    // One request and response, to ADDRESS when given, else wherever Qt resolves the host.
    QCoro::Task<Exchange> exchange(QUrl url, std::optional<QHostAddress> address, FetchRequest request,
                                   QDeadlineTimer deadline);

    Limits m_limits;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_reply;
    bool m_cancelled = false;
};

} // namespace Sandpiper
