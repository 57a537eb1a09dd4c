#include "contextusagelabel.h"

#include <session/sessionstate.h>

#include <QLocale>

namespace Sandpiper {

namespace {

// "3.1k" for a token count.
QString compactCount(qint64 count)
{
    return count < 1000 ? QLocale().toString(count) : QLocale().toString(double(count) / 1000.0, 'f', 1) + u'k';
}

} // namespace

ContextUsageLabel::ContextUsageLabel(QWidget *parent)
    : ElidedLabel(parent)
{
    setAccessibleName(tr("Context used by this conversation"));
}

void ContextUsageLabel::showUsage(const SessionState &state)
{
    // The provider's count adds up every request, each with the system prompt, the tools'
    // descriptions and the history again, so it stands alone only while no request of this run
    // measured the context.
    QString usage;
    if (state.contextTokens > 0)
        usage = state.contextWindow > 0
                    ? tr("context %1 / %2").arg(compactCount(state.contextTokens), compactCount(state.contextWindow))
                    : tr("context %1").arg(compactCount(state.contextTokens));
    else if (state.tokens > 0)
        usage = tr("%L1 tokens sent and received").arg(state.tokens);
    setText(usage);
    setToolTip(state.tokens > 0
                   ? tr("The provider counted %L1 tokens for this conversation's requests and answers; every "
                        "request carries the system prompt, the tools' descriptions and the history again.")
                         .arg(state.tokens)
                   : QString());
}

} // namespace Sandpiper
