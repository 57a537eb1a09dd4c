#include "presenters/webpresenter.h"

#include "chat/toolcallcard.h"

#include <QLabel>
#include <QUrl>

namespace Sandpiper {

QString WebPresenter::title(const ToolCall &) const
{
    return m_kind == Kind::Search ? tr("web search") : tr("page reader");
}

void WebPresenter::addResultWidgets(const TurnItem &item, ToolCallCard &card) const
{
    const auto *web = std::get_if<WebResult>(&item.result);
    if (!web)
        return;
    for (const WebSource &source : web->sources) {
        const QUrl url(source.url);
        auto *label =
            new QLabel(QStringLiteral("<b>[%1]</b> <a href=\"%2\">%3</a> <span style=\"color: gray;\">%4</span>"
                                      "<br><small>%5</small>")
                           .arg(source.number)
                           .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                                (source.title.isEmpty() ? source.url : source.title).toHtmlEscaped(),
                                url.host().toHtmlEscaped(), source.snippet.left(220).toHtmlEscaped()));
        label->setWordWrap(true);
        label->setOpenExternalLinks(true);
        label->setTextInteractionFlags(Qt::TextBrowserInteraction);
        label->setAccessibleName(tr("Source %1: %2").arg(source.number).arg(source.title));
        card.addResultWidget(label);
    }
    if (!web->userNote.isEmpty()) {
        auto *label = new QLabel(web->userNote);
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        label->setForegroundRole(QPalette::PlaceholderText);
        card.addResultWidget(label);
    }
}

} // namespace Sandpiper
