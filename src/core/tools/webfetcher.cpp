#include "tools/webfetcher.h"

#include "logging.h"
#include "tools/addresspolicy.h"

#include <sandpiper/buildinfo.h>

#include <QCoroNetworkReply>
#include <QCoroSignal>
#include <QDeadlineTimer>
#include <QHostAddress>
#include <QHostInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <memory>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// Small enough that a huge page never sits in Qt's buffers, large enough to read in few steps.
constexpr qint64 readBufferSize = 64 * 1024;

QString seconds(std::chrono::milliseconds duration)
{
    return QString::number(double(duration.count()) / 1000.0, 'g', 3);
}

std::chrono::milliseconds remaining(const QDeadlineTimer &deadline)
{
    return std::chrono::milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// The Host header for URL: its host (IDNs in ACE form, IPv6 in brackets) and explicit port.
QByteArray hostHeader(const QUrl &url)
{
    QByteArray host = url.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (url.port() != -1)
        host += ':' + QByteArray::number(url.port());
    return host;
}

FetchResult failure(FetchResult result, FetchResult::Error error, QString message)
{
    result.error = error;
    result.message = std::move(message);
    return result;
}

} // namespace

struct WebFetcher::Exchange {
    FetchResult result;
    bool connectFailed = false; // nothing was received: another address of the host may work
};

QByteArray FetchResult::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (QByteArrayView(key).compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

WebFetcher::WebFetcher(Limits limits, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_network(new QNetworkAccessManager(this))
{}

// A fetch still in flight is not cancelled here: that would resume its coroutine inside this
// destructor. Its owner cancels first (the agent cancels its tools before it lets them go).
WebFetcher::~WebFetcher() = default;

QByteArray WebFetcher::userAgent()
{
    return QByteArrayLiteral("Sandpiper/") + BuildInfo::version;
}

void WebFetcher::cancel()
{
    m_cancelled = true;
    if (m_reply)
        m_reply->abort();
    Q_EMIT wake();
}

QCoro::Task<std::optional<QHostInfo>> WebFetcher::lookUp(QString host, std::chrono::milliseconds timeout)
{
    QPointer<WebFetcher> self(this);
    // Shared with the callback, which may come after this coroutine has given up.
    auto answer = std::make_shared<std::optional<QHostInfo>>();
    const int id = QHostInfo::lookupHost(host, this, [this, answer](const QHostInfo &info) {
        *answer = info;
        Q_EMIT wake();
    });
    const QDeadlineTimer deadline(timeout);
    while (!*answer && !m_cancelled && !deadline.hasExpired()) {
        co_await qCoro(this, &WebFetcher::wake, remaining(deadline));
        if (!self)
            co_return std::nullopt;
    }
    if (!*answer)
        QHostInfo::abortHostLookup(id);
    co_return *answer;
}

QCoro::Task<FetchResult> WebFetcher::fetch(FetchRequest request)
{
    QPointer<WebFetcher> self(this);
    m_cancelled = false;
    const QDeadlineTimer deadline(m_limits.totalTimeout);
    const AddressPolicy policy(m_limits.allowLocal);

    FetchResult result;
    QUrl url = request.url.adjusted(QUrl::RemoveFragment);
    for (;;) {
        result.url = url;
        const QString redirectedFrom =
            result.redirects.isEmpty()
                ? QString()
                : tr("%1 redirected to %2. ")
                      .arg(result.redirects.constLast().toDisplayString(), url.toDisplayString());
        const QString scheme = url.scheme().toLower();
        if (!scheme.isEmpty() && scheme != QLatin1String("http") && scheme != QLatin1String("https"))
            co_return failure(result, FetchResult::Error::InvalidUrl,
                              redirectedFrom + tr("Only http and https addresses can be fetched, not %1.").arg(scheme));
        if (!url.isValid() || url.host().isEmpty() || scheme.isEmpty())
            co_return failure(result, FetchResult::Error::InvalidUrl,
                              redirectedFrom + tr("\"%1\" is not a valid web address.").arg(url.toDisplayString()));

        // Resolve and check the host here, before anything is sent; an IP literal needs no
        // lookup (and handing one to QHostInfo would start a reverse lookup).
        QList<std::optional<QHostAddress>> targets;
        if (request.checkAddresses) {
            QList<QHostAddress> addresses;
            if (QHostAddress literal; literal.setAddress(url.host())) {
                addresses << literal;
            } else {
                const auto lookupTimeout = std::min(m_limits.connectTimeout, remaining(deadline));
                const std::optional<QHostInfo> info = co_await lookUp(url.host(), lookupTimeout);
                if (!self)
                    co_return result;
                if (m_cancelled)
                    co_return failure(result, FetchResult::Error::Cancelled, tr("Cancelled."));
                if (!info)
                    co_return failure(result, FetchResult::Error::ConnectTimeout,
                                      redirectedFrom + tr("Looking up the address of %1 took longer than %2 s.")
                                                           .arg(url.host(), seconds(lookupTimeout)));
                if (info->error() != QHostInfo::NoError || info->addresses().isEmpty())
                    co_return failure(result, FetchResult::Error::HostNotFound,
                                      redirectedFrom +
                                          tr("The host %1 was not found (%2).").arg(url.host(), info->errorString()));
                addresses = info->addresses();
            }
            // One forbidden answer refuses the host: a name that mixes public and private
            // addresses is either misconfigured or an attack.
            for (const QHostAddress &address : std::as_const(addresses)) {
                if (policy.allows(address))
                    continue;
                const QString kind = AddressPolicy::describe(AddressPolicy::kindOf(address));
                const bool literal = QHostAddress(url.host()) == address;
                const QString what = literal ? tr("%1 is %2.").arg(address.toString(), kind)
                                             : tr("%1 resolves to %2, %3.").arg(url.host(), address.toString(), kind);
                qCInfo(lcAgent) << "refused to fetch" << url.toDisplayString() << "at" << address.toString();
                co_return failure(result, FetchResult::Error::Refused,
                                  redirectedFrom + what + QLatin1Char(' ') +
                                      (m_limits.allowLocal ? tr("Such addresses are never fetched.")
                                                           : tr("Only public internet addresses are fetched.")));
            }
            for (const QHostAddress &address : std::as_const(addresses))
                targets << address;
        } else {
            targets << std::nullopt;
        }

        FetchResult response;
        for (const std::optional<QHostAddress> &target : std::as_const(targets)) {
            Exchange exchanged = co_await exchange(url, target, request, deadline);
            if (!self)
                co_return result;
            response = std::move(exchanged.result);
            if (!exchanged.connectFailed)
                break;
        }
        response.redirects = result.redirects;
        response.url = url;
        if (!response.ok()) {
            if (!redirectedFrom.isEmpty() && response.error != FetchResult::Error::Cancelled)
                response.message = redirectedFrom + response.message;
            co_return response;
        }
        result = response;
        const QByteArray location = result.header("location");
        if (!isRedirect(result.status) || location.isEmpty())
            co_return result;

        result.redirects << url;
        url = url.resolved(QUrl(QString::fromUtf8(location).trimmed())).adjusted(QUrl::RemoveFragment);
        if (result.redirects.size() > m_limits.maxRedirects) {
            QStringList chain;
            for (const QUrl &hop : std::as_const(result.redirects))
                chain << hop.toDisplayString();
            chain << url.toDisplayString();
            result.body.clear();
            co_return failure(result, FetchResult::Error::TooManyRedirects,
                              tr("More than %1 redirects: %2. The page may redirect in a loop.")
                                  .arg(m_limits.maxRedirects)
                                  .arg(chain.join(QStringLiteral(" → "))));
        }
        // As browsers do: 303 always, and 301/302 after a POST, continue with a plain GET.
        if (result.status == 303 || ((result.status == 301 || result.status == 302) && request.method == "POST")) {
            request.method = "GET";
            request.body.clear();
        }
    }
}

QCoro::Task<WebFetcher::Exchange> WebFetcher::exchange(QUrl url, std::optional<QHostAddress> address,
                                                       FetchRequest request, QDeadlineTimer deadline)
{
    QPointer<WebFetcher> self(this);
    Exchange exchanged;
    FetchResult &result = exchanged.result;
    result.url = url;

    QUrl target = url;
    QNetworkRequest networkRequest;
    if (address) {
        // Pinning: the connection goes to the address that was checked, not to whatever a
        // second DNS answer says (rebinding). The URL names the address; the Host header and,
        // for https, the name the certificate must match (and SNI) stay the real host, so TLS
        // verification works as usual. Qt builds HTTP/2's :authority from the URL, so HTTP/2
        // is off here; and each request gets its own connection ("Connection: close"), so a
        // TLS connection verified for one name is never reused for another on the same address.
        target.setHost(address->toString());
        networkRequest.setRawHeader("Host", hostHeader(url));
        if (url.scheme().compare(QLatin1String("https"), Qt::CaseInsensitive) == 0)
            networkRequest.setPeerVerifyName(url.host());
        networkRequest.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        networkRequest.setRawHeader("Connection", "close");
    }
    networkRequest.setUrl(target);
    networkRequest.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    // Nothing is remembered between fetches: no cookie is stored or sent.
    networkRequest.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    networkRequest.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    networkRequest.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    for (const auto &[name, value] : std::as_const(request.headers))
        networkRequest.setRawHeader(name, value);

    QNetworkReply *reply = request.body.isNull() && request.method == "GET"
                               ? m_network->get(networkRequest)
                               : m_network->sendCustomRequest(networkRequest, request.method, request.body);
    reply->setReadBufferSize(readBufferSize);
    m_reply = reply;

    enum class Timeout { None, Connect, Total } timedOut = Timeout::None;
    bool headReceived = false;
    const auto connectTimeout = std::min(m_limits.connectTimeout, remaining(deadline));
    QTimer connectTimer;
    connectTimer.setSingleShot(true);
    connect(&connectTimer, &QTimer::timeout, reply, [&] {
        timedOut = Timeout::Connect;
        reply->abort();
    });
    QTimer totalTimer;
    totalTimer.setSingleShot(true);
    connect(&totalTimer, &QTimer::timeout, reply, [&] {
        timedOut = Timeout::Total;
        reply->abort();
    });
    connectTimer.start(connectTimeout);
    totalTimer.start(remaining(deadline));

    // Aborting inside the reply's own signals would resume this coroutine (and whatever awaits
    // it) in the middle of Qt's emission; the event loop does it a moment later instead.
    const auto abortLater = [reply] {
        QMetaObject::invokeMethod(reply, &QNetworkReply::abort, Qt::QueuedConnection);
    };
    auto takeBody = [&] {
        while (reply->bytesAvailable() > 0 && !result.truncated && !result.bodySkipped) {
            const QByteArray chunk = reply->read(readBufferSize);
            const qint64 room = m_limits.maxBytes - result.body.size();
            if (chunk.size() > room) {
                result.body += chunk.first(room);
                result.truncated = true;
                abortLater();
            } else {
                result.body += chunk;
            }
        }
    };
    connect(reply, &QNetworkReply::metaDataChanged, reply, [&] {
        connectTimer.stop();
        headReceived = true;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray contentType = reply->rawHeader("Content-Type");
        if (!isRedirect(status) && request.wantsBody && !request.wantsBody(contentType)) {
            result.bodySkipped = true;
            abortLater();
        }
    });
    connect(reply, &QNetworkReply::readyRead, reply, takeBody);

    co_await reply;
    if (!self)
        co_return exchanged;
    connectTimer.stop();
    totalTimer.stop();
    takeBody();
    m_reply.clear();
    reply->deleteLater();

    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        result.headers.append({name, value});

    const auto fail = [&exchanged](FetchResult::Error error, QString message) {
        exchanged.result.error = error;
        exchanged.result.message = std::move(message);
        return exchanged;
    };
    const QString where = url.port() != -1 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
    if (m_cancelled)
        co_return fail(FetchResult::Error::Cancelled, tr("Cancelled."));
    if (timedOut == Timeout::Connect)
        co_return fail(FetchResult::Error::ConnectTimeout,
                       tr("%1 did not answer within %2 s.").arg(where, seconds(connectTimeout)));
    if (timedOut == Timeout::Total)
        co_return fail(FetchResult::Error::Timeout,
                       tr("The page did not finish loading within %1 s.").arg(seconds(m_limits.totalTimeout)));
    if (result.truncated || result.bodySkipped)
        co_return exchanged;
    if (result.status == 0) {
        const QNetworkReply::NetworkError error = reply->error();
        if (!headReceived && (error == QNetworkReply::ConnectionRefusedError || error == QNetworkReply::TimeoutError ||
                              error == QNetworkReply::UnknownNetworkError)) {
            exchanged.connectFailed = true;
        }
        switch (error) {
        case QNetworkReply::ConnectionRefusedError:
            co_return fail(FetchResult::Error::Network, tr("%1 refused the connection.").arg(where));
        case QNetworkReply::HostNotFoundError:
            co_return fail(FetchResult::Error::HostNotFound, tr("The host %1 was not found.").arg(url.host()));
        case QNetworkReply::SslHandshakeFailedError:
            co_return fail(FetchResult::Error::Network,
                           tr("The secure connection to %1 failed: %2").arg(where, reply->errorString()));
        default:
            co_return fail(FetchResult::Error::Network,
                           tr("Network error with %1: %2").arg(where, reply->errorString()));
        }
    }
    co_return exchanged;
}

} // namespace Sandpiper
