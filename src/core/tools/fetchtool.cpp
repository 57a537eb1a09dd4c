#include "tools/fetchtool.h"

#include "llm/argumentrepair.h"
#include "tools/citationindex.h"
#include "tools/htmltotext.h"
#include "tools/webfetcher.h"
#include "tools/webtextdecoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QPointer>

namespace Sandpiper {

namespace {

// Room for the lines about a page (status, address, title, notes) beside its text.
constexpr int headRoom = 1000;

enum class Content { Html, Text, Json, Binary };

Content classifyType(const QByteArray &mime)
{
    if (mime == "text/html" || mime == "application/xhtml+xml")
        return Content::Html;
    if (mime == "application/json" || mime == "text/json" || mime.endsWith("+json"))
        return Content::Json;
    if (mime.startsWith("text/") || mime == "application/xml" || mime.endsWith("+xml") ||
        mime == "application/javascript" || mime == "application/x-javascript" || mime == "application/x-ndjson" ||
        mime == "application/yaml" || mime == "application/x-yaml" || mime == "application/toml" ||
        mime == "application/x-sh" || mime == "application/sql")
        return Content::Text;
    return Content::Binary;
}

// Servers that do not say what they send, or say "octet-stream" for everything: a look at
// the first bytes decides.
bool needsSniffing(const QByteArray &mime)
{
    return mime.isEmpty() || mime == "application/octet-stream" || mime == "binary/octet-stream" ||
           mime == "application/unknown";
}

Content sniff(const QByteArray &body, QByteArray *sniffedType)
{
    const QByteArray head = body.left(1024);
    if (head.startsWith("%PDF-")) {
        *sniffedType = "application/pdf";
        return Content::Binary;
    }
    if (head.contains('\0')) {
        *sniffedType = "application/octet-stream";
        return Content::Binary;
    }
    const QByteArray start = head.trimmed().toLower();
    if (start.startsWith("<!doctype html") || start.startsWith("<html") || start.contains("<body")) {
        *sniffedType = "text/html";
        return Content::Html;
    }
    if ((start.startsWith('{') || start.startsWith('[')) && !QJsonDocument::fromJson(body).isNull()) {
        *sniffedType = "application/json";
        return Content::Json;
    }
    *sniffedType = "text/plain";
    return Content::Text;
}

QString whatBinaryIs(const QByteArray &mime)
{
    if (mime == "application/pdf")
        return QStringLiteral("a PDF document");
    if (mime.startsWith("image/"))
        return QStringLiteral("an image");
    if (mime.startsWith("audio/"))
        return QStringLiteral("an audio file");
    if (mime.startsWith("video/"))
        return QStringLiteral("a video");
    if (mime.startsWith("font/"))
        return QStringLiteral("a font");
    if (mime.contains("zip") || mime.contains("tar") || mime.contains("compressed") || mime.contains("rar"))
        return QStringLiteral("an archive");
    if (mime.contains("officedocument") || mime.contains("msword") || mime.contains("ms-excel") ||
        mime.contains("ms-powerpoint") || mime.contains("opendocument"))
        return QStringLiteral("an office document");
    return QStringLiteral("a binary file");
}

QString size(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QString statusLine(const FetchResult &result)
{
    QString reason = QString::fromLatin1(result.reason).trimmed();
    return reason.isEmpty() ? QStringLiteral("HTTP %1").arg(result.status)
                            : QStringLiteral("HTTP %1 %2").arg(result.status).arg(reason);
}

// What the model can do about an HTTP error.
QString adviceForStatus(int status)
{
    if (status == 404 || status == 410)
        return QStringLiteral("There is no page at this address. Check it for typos, or find the right page with "
                              "search_web.");
    if (status == 401 || status == 403 || status == 407 || status == 451)
        return QStringLiteral("The site does not show this page to Sandpiper (it may need a login or refuse automated "
                              "readers). Use another source.");
    if (status == 429)
        return QStringLiteral("The site is rate limiting. Do not fetch from it again right away; use another source.");
    if (status >= 500)
        return QStringLiteral("The site has a server problem. Try again later, or use another source.");
    return QStringLiteral("The site rejected the request. Use another source.");
}

} // namespace

FetchTool::FetchTool(WebConfig config, std::shared_ptr<CitationIndex> citations)
    : WebTool(config, std::move(citations), config.fetchTimeout)
{}

QString FetchTool::description() const
{
    return QStringLiteral(
        "Read a web page by its URL and get its text: HTML comes as readable text with headings, lists, links and "
        "tables; plain text and JSON come as they are. Long pages are shortened. PDFs, images and other binary files "
        "cannot be read. Only public http and https addresses.");
}

QJsonObject FetchTool::parameters() const
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("url"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                      {QStringLiteral("description"),
                                       QStringLiteral("The full address of the page, starting with https:// or "
                                                      "http://.")}}}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("url")}}};
}

PreparedCall FetchTool::prepare(const ToolCall &call) const
{
    PreparedCall prepared;
    prepared.call = call;
    const RepairedArgument argument =
        repairStringArgument(call.arguments, QStringLiteral("url"),
                             {QStringLiteral("link"), QStringLiteral("href"), QStringLiteral("uri"),
                              QStringLiteral("page"), QStringLiteral("website"), QStringLiteral("address")});
    if (!argument.ok()) {
        prepared.error = argument.error;
        return prepared;
    }
    QString text = argument.value.trimmed();
    bool repaired = argument.repaired;
    // Models wrap URLs as they would in prose: <https://…>, "https://…", or leave out the scheme.
    while (text.size() >= 2 && ((text.startsWith(QLatin1Char('<')) && text.endsWith(QLatin1Char('>'))) ||
                                (text.startsWith(QLatin1Char('"')) && text.endsWith(QLatin1Char('"'))) ||
                                (text.startsWith(QLatin1Char('\'')) && text.endsWith(QLatin1Char('\''))))) {
        text = text.sliced(1, text.size() - 2).trimmed();
        repaired = true;
    }
    if (text.startsWith(QLatin1String("//"))) {
        text.prepend(QStringLiteral("https:"));
        repaired = true;
    } else if (!text.contains(QLatin1String("://")) && !text.contains(QLatin1Char(' ')) &&
               text.contains(QLatin1Char('.'))) {
        text.prepend(QStringLiteral("https://"));
        repaired = true;
    }
    const QUrl url = QUrl::fromUserInput(text);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || url.host().isEmpty()) {
        prepared.error = QStringLiteral("\"%1\" is not a web address; expected a full URL like "
                                        "{\"url\": \"https://example.com/page\"}.")
                             .arg(text);
        return prepared;
    }
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https")) {
        prepared.error =
            QStringLiteral("Only http and https addresses can be fetched, not %1 (\"%2\").").arg(scheme, text);
        return prepared;
    }
    prepared.preview = url.toString();
    prepared.repaired = repaired;
    prepared.arguments = {{QStringLiteral("url"), url.toString(QUrl::FullyEncoded)}};
    return prepared;
}

QCoro::Task<ToolOutcome> FetchTool::run(PreparedCall call)
{
    const QUrl url(call.arguments.value(QLatin1String("url")).toString());
    FetchRequest request;
    request.url = url;
    request.headers = {{"Accept", "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5"}};
    // A PDF or a video is refused whatever it holds, so its bytes are not even downloaded.
    request.wantsBody = [](const QByteArray &contentType) {
        const QByteArray mime = WebTextDecoder::mimeType(contentType);
        return needsSniffing(mime) || classifyType(mime) != Content::Binary;
    };
    QPointer<WebFetcher> alive(m_fetcher.get()); // gone when this tool is
    const FetchResult result = co_await m_fetcher->fetch(request);
    if (!alive)
        co_return {};
    // The page's text keeps to the result's budget too, with room for the lines about it.
    const int maxChars = call.resultChars > 0
                             ? std::min(m_config.maxChars, std::max(headRoom, call.resultChars - headRoom))
                             : m_config.maxChars;
    co_return outcomeFor(url, result, maxChars);
}

ToolOutcome FetchTool::outcomeFor(const QUrl &requested, const FetchResult &result, int maxChars)
{
    ToolOutcome outcome;
    const QString address = result.url.isEmpty() ? requested.toString() : result.url.toString();
    const auto fail = [&outcome](const QString &status, const QString &what, const QString &advice) {
        outcome.modelText = QStringLiteral("Status: %1: %2").arg(status, what);
        if (!advice.isEmpty())
            outcome.modelText += QLatin1Char('\n') + advice;
        outcome.result = WebResult{{}, what};
        return outcome;
    };

    switch (result.error) {
    case FetchResult::Error::None:
        break;
    case FetchResult::Error::Cancelled:
        outcome.modelText = QStringLiteral("Cancelled: the user stopped the fetch.");
        return outcome;
    case FetchResult::Error::Refused:
        return fail(QStringLiteral("refused"), result.message, QStringLiteral("Use a public web address."));
    case FetchResult::Error::InvalidUrl:
        return fail(QStringLiteral("error"), result.message,
                    QStringLiteral("Give a full http:// or https:// address."));
    case FetchResult::Error::HostNotFound:
        return fail(QStringLiteral("error"), result.message,
                    QStringLiteral("Check the address for typos; the site may not exist. search_web can find the "
                                   "right address."));
    case FetchResult::Error::ConnectTimeout:
    case FetchResult::Error::Timeout:
    case FetchResult::Error::Network:
        return fail(QStringLiteral("error"), result.message,
                    QStringLiteral("The site may be down or slow. Try once more later, or use another source."));
    case FetchResult::Error::TooManyRedirects:
        return fail(QStringLiteral("error"), result.message, QStringLiteral("Use another source."));
    }

    if (result.status >= 400) {
        QString what = QStringLiteral("%1 for %2.").arg(statusLine(result), address);
        const QByteArray retryAfter = result.header("retry-after").trimmed();
        if (result.status == 429 && !retryAfter.isEmpty())
            what += QStringLiteral(" The site asks to wait %1 s.").arg(QString::fromLatin1(retryAfter));
        return fail(QStringLiteral("error"), what, adviceForStatus(result.status));
    }

    QByteArray mime = WebTextDecoder::mimeType(result.contentType());
    Content content = classifyType(mime);
    if (needsSniffing(mime)) {
        QByteArray sniffed;
        content = sniff(result.body, &sniffed);
        mime = sniffed;
    }
    const QByteArray declaredLength = result.header("content-length");
    const qint64 totalBytes = declaredLength.isEmpty() ? result.body.size() : declaredLength.toLongLong();
    if (content == Content::Binary) {
        const QString what = QStringLiteral("%1 is %2 (%3%4); fetch_url reads only HTML pages, plain text and JSON.")
                                 .arg(address, whatBinaryIs(mime), QString::fromLatin1(mime),
                                      totalBytes > 0 ? QStringLiteral(", ") + size(totalBytes) : QString());
        return fail(QStringLiteral("not read"), what,
                    QStringLiteral("Look for an HTML version of the same content (an abstract or article page), or "
                                   "use another source."));
    }

    const WebTextDecoder::Decoded decoded =
        WebTextDecoder::decode(result.body, result.contentType(), content == Content::Html);
    QString title;
    QString text;
    if (content == Content::Html) {
        HtmlToText::Page page = HtmlToText::convert(decoded.text, result.url);
        title = page.title;
        text = std::move(page.text);
    } else {
        text = decoded.text;
        if (text.startsWith(QChar(0xFEFF)))
            text.remove(0, 1);
        text = text.trimmed();
    }

    WebSource source;
    source.url = result.url.toString();
    // A search result keeps its number, even when its address redirected elsewhere.
    const std::optional<int> known = m_citations->find(requested.toString());
    source.number = known ? *known : m_citations->numberFor(source.url);
    source.title = title.isEmpty() ? result.url.host() : title;
    source.snippet = text.left(300).simplified();

    QStringList head;
    head << QStringLiteral("Status: ok (%1, %2, %3)")
                .arg(statusLine(result), QString::fromLatin1(mime), size(result.body.size()));
    head << QStringLiteral("URL: %1").arg(source.url);
    if (!result.redirects.isEmpty())
        head << QStringLiteral("Redirected from: %1").arg(result.redirects.constFirst().toString());
    if (!title.isEmpty())
        head << QStringLiteral("Title: %1").arg(title);
    head << QStringLiteral("Cite this page as [%1].").arg(source.number);
    if (result.truncated)
        head << QStringLiteral("Note: the page is larger than %1; only the first %1 were read, so the text ends early.")
                    .arg(size(m_config.maxBytes));
    const qsizetype fullLength = text.size();
    if (fullLength > maxChars) {
        text.truncate(maxChars);
        text += QStringLiteral("\n[… cut: %1 more characters are not shown …]").arg(fullLength - maxChars);
        head << QStringLiteral("Note: the text is %1 characters long; only the first %2 are shown.")
                    .arg(fullLength)
                    .arg(maxChars);
    }
    if (text.isEmpty())
        head << QStringLiteral("Note: the page has no readable text. It may be built by JavaScript, which fetch_url "
                               "does not run; try another source.");

    outcome.success = true;
    outcome.modelText = head.join(QLatin1Char('\n')) + (text.isEmpty() ? QString() : QStringLiteral("\n\n") + text);
    outcome.result = WebResult{{source}, {}};
    return outcome;
}

} // namespace Sandpiper
