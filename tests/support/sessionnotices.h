#pragma once

#include <session/conversationsession.h>
#include <session/messagemodel.h>

#include <QStringList>

namespace Sandpiper::Test {

// The notices SESSION's chat shows, one a line: what a check that failed prints.
inline QString noticesOf(ConversationSession *session)
{
    QStringList texts;
    for (int row = 0; row < session->messages()->rowCount(); ++row) {
        if (session->messages()->item(row).kind == TurnItem::Kind::Notice)
            texts << session->messages()->item(row).text;
    }
    return texts.join(QLatin1Char('\n'));
}

} // namespace Sandpiper::Test
