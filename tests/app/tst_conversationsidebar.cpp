// The sidebar: search hits one per conversation, with the matches marked and counted, reached and
// opened from the keyboard; the working ring and the unread dot on a selected row, light and dark.
// With SANDPIPER_SCREENSHOT_DIR set, also saves the sidebar's screenshots, narrow and wide.
#include "screenshot.h"
#include "testprofile.h"

#include <conversationlistmodel.h>
#include <conversationsidebar.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>
#include <translations.h>

#include <QApplication>
#include <QLineEdit>
#include <QListView>
#include <QPainter>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

ChatMessage userMessage(const QString &text)
{
    ChatMessage message;
    message.role = ChatMessage::Role::User;
    message.content = text;
    message.status = ChatMessage::Status::Complete;
    return message;
}

// How far apart two colours are: the largest difference of their channels.
int distance(QRgb a, QRgb b)
{
    return std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

} // namespace

class TestConversationSidebar : public QObject
{
    Q_OBJECT

    TestProfile m_profile;
    qint64 m_chatty = 0;      // matches "histogram" in five messages and its code
    qint64 m_bestMessage = 0; // of those, the best match
    qint64 m_other = 0;       // matches once

    // The row of VIEW drawn as it is on screen, selected or not, in a window that has the
    // focus (ACTIVE) or not.
    static QImage paintRow(QListView *view, const QModelIndex &index, bool selected, bool active)
    {
        QStyleOptionViewItem option;
        option.initFrom(view);
        option.rect = QRect(QPoint(0, 0), view->itemDelegate()->sizeHint(option, index).expandedTo(QSize(240, 0)));
        option.state = QStyle::State_Enabled;
        if (selected)
            option.state |= QStyle::State_Selected;
        if (active)
            option.state |= QStyle::State_Active;
        option.widget = view;
        QImage image(option.rect.size(), QImage::Format_RGB32);
        image.fill(option.palette.color(active ? QPalette::Active : QPalette::Inactive, QPalette::Base));
        QPainter painter(&image);
        view->itemDelegate()->paint(&painter, option, index);
        painter.end();
        return image;
    }

private Q_SLOTS:
    void initTestCase()
    {
        Translations::install(QLocale(QStringLiteral("en")));
        QCOMPARE(m_profile.open(), QString());

        const auto other = m_profile.store()->createConversation(QString(), QString());
        QVERIFY(m_profile.store()->renameConversation(other->id, QStringLiteral("Sales by region")).ok());
        QVERIFY(m_profile.store()
                    ->appendMessage(other->id, userMessage(QStringLiteral("Is a histogram the right chart here?")))
                    .ok());
        m_other = other->id;
        const auto chatty = m_profile.store()->createConversation(QString(), QString());
        QVERIFY(m_profile.store()->renameConversation(chatty->id, QStringLiteral("Penguin measurements")).ok());
        for (int i = 0; i < 5; ++i) {
            const QString text = i == 2 ? QStringLiteral("histogram of flipper lengths, histogram of bill depths")
                                        : QStringLiteral("Draw a histogram of column %1 with twenty bins and a title, "
                                                         "then describe the shape of the distribution")
                                              .arg(i);
            const auto stored = m_profile.store()->appendMessage(chatty->id, userMessage(text));
            QVERIFY(stored.ok());
            if (i == 2)
                m_bestMessage = stored->id;
        }
        StoredExecution code;
        code.conversationId = chatty->id;
        code.code = QStringLiteral("penguins.hist(column='flipper_length_mm')  # histogram");
        code.origin = StoredExecution::Origin::User;
        QVERIFY(m_profile.store()->addExecution(code).ok());
        m_chatty = chatty->id;
    }

    void cleanupTestCase() { QVERIFY(m_profile.close()); }

    void searchShowsEachConversationOnceWithItsMatchesMarked()
    {
        ConversationSidebar sidebar(m_profile.store(), m_profile.sessions());
        sidebar.refresh();
        QCOMPARE(sidebar.model()->rowCount(), 2);
        sidebar.searchField()->setText(QStringLiteral("histogram"));
        sidebar.refresh();
        const QAbstractItemModel *model = sidebar.list()->model();
        QCOMPARE(model->rowCount(), 2); // not one row per message
        const QModelIndex best = model->index(0, 0);
        QCOMPARE(best.data(ConversationListModel::ConversationIdRole).toLongLong(), m_chatty);
        QCOMPARE(best.data(ConversationListModel::MessageIdRole).toLongLong(), m_bestMessage);
        QCOMPARE(best.data(Qt::DisplayRole).toString(), QStringLiteral("Penguin measurements"));
        QCOMPARE(best.data(ConversationListModel::MatchCountRole).toInt(), 6);
        const QString snippet = best.data(ConversationListModel::SnippetRole).toString();
        QCOMPARE(snippet, QStringLiteral("histogram of flipper lengths, histogram of bill depths"));
        const auto ranges =
            best.data(ConversationListModel::MatchRangesRole).value<ConversationListModel::MatchRanges>();
        QCOMPARE(ranges.size(), 2);
        for (const auto &[start, length] : ranges)
            QCOMPARE(snippet.mid(start, length), QStringLiteral("histogram"));
        QCOMPARE(best.data(Qt::AccessibleTextRole).toString(),
                 QStringLiteral("Penguin measurements: histogram of flipper lengths, histogram of bill depths "
                                "(6 matches)"));
        QCOMPARE(model->index(1, 0).data(ConversationListModel::MatchCountRole).toInt(), 1);
        QCOMPARE(model->index(1, 0).data(Qt::AccessibleTextRole).toString(),
                 QStringLiteral("Sales by region: Is a histogram the right chart here? (1 match)"));

        // The title and the snippet on lines of their own, rows apart.
        QStyleOptionViewItem option;
        option.initFrom(sidebar.list());
        const QSize hit = sidebar.list()->itemDelegate()->sizeHint(option, best);
        QVERIFY2(hit.height() >= 3 * sidebar.list()->fontMetrics().height(), qPrintable(QString::number(hit.height())));

        // The matches are drawn marked: the tint is there with the ranges and gone without them.
        QStandardItemModel plain;
        auto *item = new QStandardItem(QStringLiteral("Penguin measurements"));
        item->setData(snippet, ConversationListModel::SnippetRole);
        item->setData(6, ConversationListModel::MatchCountRole);
        plain.appendRow(item);
        const QColor highlight = sidebar.list()->palette().color(QPalette::Active, QPalette::Highlight);
        auto tinted = [&](const QImage &image) {
            int count = 0;
            const QColor base = sidebar.list()->palette().color(QPalette::Active, QPalette::Base);
            // What a translucent Highlight over the row's background comes to.
            const QRgb expected = qRgb((highlight.red() * 70 + base.red() * 185) / 255,
                                       (highlight.green() * 70 + base.green() * 185) / 255,
                                       (highlight.blue() * 70 + base.blue() * 185) / 255);
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    count += distance(image.pixel(x, y), expected) <= 3;
            return count;
        };
        QVERIFY(tinted(paintRow(sidebar.list(), best, false, true)) > 50);
        QCOMPARE(tinted(paintRow(sidebar.list(), plain.index(0, 0), false, true)), 0);
    }

    void theKeyboardReachesAndOpensTheHits()
    {
        ConversationSidebar sidebar(m_profile.store(), m_profile.sessions());
        sidebar.resize(260, 500);
        sidebar.show();
        QVERIFY(QTest::qWaitForWindowActive(&sidebar));
        sidebar.refresh();
        QSignalSpy chosen(&sidebar, &ConversationSidebar::conversationChosen);
        sidebar.focusSearch();
        QTest::keyClicks(sidebar.searchField(), QStringLiteral("histogram"));
        // Down goes to the best hit at once, whether or not the search has run yet.
        QTest::keyClick(sidebar.searchField(), Qt::Key_Down);
        QVERIFY(sidebar.list()->hasFocus());
        QCOMPARE(sidebar.model()->rowCount(), 2);
        QCOMPARE(sidebar.list()->currentIndex().row(), 0);
        // Moving through the hits does not open them.
        QTest::keyClick(sidebar.list(), Qt::Key_Down);
        QCOMPARE(sidebar.list()->currentIndex().row(), 1);
        QVERIFY(chosen.isEmpty());
        QTest::keyClick(sidebar.list(), Qt::Key_Up);
        QTest::keyClick(sidebar.list(), Qt::Key_Up);
        QVERIFY(sidebar.searchField()->hasFocus());
        QTest::keyClick(sidebar.searchField(), Qt::Key_Down);
        QTest::keyClick(sidebar.list(), Qt::Key_Return);
        QCOMPARE(chosen.size(), 1);
        QCOMPARE(chosen.at(0).at(0).toLongLong(), m_chatty);
        QCOMPARE(chosen.at(0).at(1).toLongLong(), m_bestMessage);
        // Enter in the field opens the best hit; a click opens the one clicked.
        QTest::keyClick(sidebar.list(), Qt::Key_Up);
        QTest::keyClick(sidebar.searchField(), Qt::Key_Enter);
        QCOMPARE(chosen.size(), 2);
        QCOMPARE(chosen.at(1).at(0).toLongLong(), m_chatty);
        const QRect second = sidebar.list()->visualRect(sidebar.model()->index(1, 0));
        QTest::mouseClick(sidebar.list()->viewport(), Qt::LeftButton, {}, second.center());
        QCOMPARE(chosen.size(), 3);
        QCOMPARE(chosen.at(2).at(0).toLongLong(), m_other);
        // Escape clears the search: the conversations are back.
        sidebar.searchField()->setFocus();
        QTest::keyClick(sidebar.searchField(), Qt::Key_Escape);
        QVERIFY(sidebar.searchField()->text().isEmpty());
        sidebar.refresh();
        QVERIFY(!sidebar.model()->isSearching());
    }

    void theMarksShowOnASelectedRow_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::addColumn<bool>("active");
        QTest::addColumn<int>("role");
        for (const QString &theme : {QStringLiteral("light"), QStringLiteral("dark")}) {
            for (const bool active : {true, false}) {
                const QString window = active ? QStringLiteral("focused") : QStringLiteral("unfocused");
                QTest::addRow("%s, %s, working", qPrintable(theme), qPrintable(window))
                    << theme << active << int(ConversationListModel::RunningRole);
                QTest::addRow("%s, %s, unread", qPrintable(theme), qPrintable(window))
                    << theme << active << int(ConversationListModel::UnreadRole);
            }
        }
    }

    void theMarksShowOnASelectedRow()
    {
        QFETCH(QString, theme);
        QFETCH(bool, active);
        QFETCH(int, role);
        applyTheme(*m_profile.settings(), theme);
        ConversationSidebar sidebar(m_profile.store(), m_profile.sessions());
        // Without a title, the mark is all there is to see.
        QStandardItemModel marked;
        auto *item = new QStandardItem;
        item->setData(true, role);
        marked.appendRow(item);
        for (const bool selected : {false, true}) {
            const QImage row = paintRow(sidebar.list(), marked.index(0, 0), selected, active);
            const QRgb background = row.pixel(row.width() - 2, row.height() / 2);
            int contrast = 0;
            for (int y = 0; y < row.height(); ++y)
                for (int x = 0; x < row.width(); ++x)
                    contrast = std::max(contrast, distance(row.pixel(x, y), background));
            QVERIFY2(
                contrast > 120,
                qPrintable(
                    QStringLiteral("selected %1: the mark is %2 from the background").arg(selected).arg(contrast)));
        }
    }

    void screenshots_data() { addThemeRows(); }

    void screenshots()
    {
        QFETCH(QString, theme);
        applyTheme(*m_profile.settings(), theme);
        for (const int width : {200, 420}) {
            ConversationSidebar sidebar(m_profile.store(), m_profile.sessions());
            sidebar.resize(width, 360);
            sidebar.show();
            QVERIFY(QTest::qWaitForWindowExposed(&sidebar));
            sidebar.searchField()->setText(QStringLiteral("histogram"));
            sidebar.refresh();
            sidebar.list()->setFocus();
            sidebar.list()->setCurrentIndex(sidebar.model()->index(0, 0));
            saveScreenshot(&sidebar, QStringLiteral("sidebar-search-%1-%2.png").arg(width).arg(theme));

            // The marks on a selected row and on others, in the sidebar's own delegate.
            QStandardItemModel marks;
            const QList<std::pair<QString, int>> rows{
                {QStringLiteral("Working, selected"), ConversationListModel::RunningRole},
                {QStringLiteral("New answer"), ConversationListModel::UnreadRole},
                {QStringLiteral("Working"), ConversationListModel::RunningRole},
                {QStringLiteral("Quiet"), 0}};
            for (const auto &[title, role] : rows) {
                auto *item = new QStandardItem(title);
                if (role != 0)
                    item->setData(true, role);
                marks.appendRow(item);
            }
            sidebar.list()->setModel(&marks);
            sidebar.list()->setCurrentIndex(marks.index(0, 0));
            saveScreenshot(sidebar.list(), QStringLiteral("sidebar-marks-%1-%2.png").arg(width).arg(theme));
        }
    }

    // A title longer than the list is wide ends in "…" (the tooltip has all of it); the list
    // does not scroll sideways to show it.
    void aLongTitleIsCutShortNotScrolled()
    {
        const auto lengthy = m_profile.store()->createConversation(QString(), QString());
        const QString title =
            QStringList(4, QStringLiteral("A very long title about the quarterly revenue of every region"))
                .join(QStringLiteral(", "));
        QVERIFY(m_profile.store()->renameConversation(lengthy->id, title).ok());
        ConversationSidebar sidebar(m_profile.store(), m_profile.sessions());
        sidebar.resize(240, 400);
        sidebar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&sidebar));
        sidebar.refresh();
        QTRY_COMPARE(sidebar.model()->rowCount(), 3);
        QCoreApplication::processEvents();
        QVERIFY(!sidebar.list()->horizontalScrollBar()->isVisible());
        QCOMPARE(sidebar.list()->horizontalScrollBar()->maximum(), 0);
        QVERIFY(sidebar.model()->index(0, 0).data(Qt::ToolTipRole).toString().startsWith(title));
        QVERIFY(m_profile.store()->deleteConversation(lengthy->id).ok());
    }
};

QTEST_MAIN(TestConversationSidebar)
#include "tst_conversationsidebar.moc"
