-- The delivery log used to keep up to 200 characters of a webhook receiver's answer and told refused
-- connections from resets and timeouts, which let a tenant read internal services through it. Old
-- rows are brought to the new form: the status only, one text for every connection failure.
UPDATE notification_deliveries
   SET last_error = substring(last_error FROM '^Получатель ответил HTTP [0-9]+')
 WHERE last_error ~ '^Получатель ответил HTTP [0-9]+: ';

UPDATE notification_deliveries
   SET last_error = 'Не удалось соединиться с адресом'
 WHERE last_error ~ '^(Соединение отклонено|Соединение разорвано|Ошибка соединения|Нет ответа за)';

UPDATE notification_deliveries
   SET last_error = 'Telegram: Не удалось соединиться с адресом'
 WHERE last_error ~ '^Telegram: (Соединение отклонено|Соединение разорвано|Ошибка соединения|Нет ответа за)';
