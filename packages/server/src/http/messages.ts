/**
 * Every message the API sends, in Chinese and English. Chinese is the default whatever the browser
 * prefers: the CloudPaste client recognises some errors by Chinese substrings of the message (a wrong
 * password, an expired share, a taken link suffix… — docs/API-MESSAGES.md lists them, and those texts
 * must keep their substrings). English only when the request asks with `X-Cubby-Lang: en`, as our web
 * app does when its UI is in English.
 */

export type Lang = 'zh' | 'en';

const catalogue = {
  'common.ok': ['成功', 'OK'],
  'common.not_found_route': ['未找到请求的资源', 'The requested resource was not found'],
  'common.internal': ['服务器内部错误', 'Internal server error'],
  'common.invalid_json': ['请求体不是有效的 JSON', 'The request body is not valid JSON'],
  'common.body_too_large': ['请求内容过大（上限 {limit}）', 'The request body is too large (limit {limit})'],
  'common.body_timeout': [
    '请求体未在 {seconds} 秒内完整到达',
    'The request body did not arrive within {seconds} seconds',
  ],
  'common.body_too_slow': [
    '上传过慢：{seconds} 秒内收到的数据不足 {bytes}',
    'The upload is too slow: less than {bytes} arrived in {seconds} seconds',
  ],
  'common.body_incomplete': ['请求体不完整', 'The request body ended early'],
  'common.rate_limited': [
    '密码错误次数过多，请 {seconds} 秒后再试',
    'Too many wrong passwords, try again in {seconds} seconds',
  ],
  'common.validation': ['请求参数无效：{field}', 'Invalid input: {field}'],
  'common.nul_in_url': [
    '请求地址中不能包含 NUL 字符（%00）',
    'The request address must not contain NUL (%00)',
  ],
  'auth.required': ['需要认证访问', 'Authentication required'],
  'auth.invalid_credentials_header': ['认证信息无效或已过期', 'The credentials are invalid or have expired'],
  'auth.admin_required': ['需要管理员权限', 'Administrator permission required'],
  'auth.permission_required': [
    '需要以下权限之一: {permission}',
    'This call needs the {permission} permission',
  ],
  'auth.admin_token_required': ['需要以下权限: admin', 'This call needs an admin token'],
  'auth.apikey_required': ['需要 API 密钥认证', 'This call needs an API key'],
  'auth.login_fields_required': ['用户名和密码不能为空', 'Username and password are required'],
  'auth.invalid_login': ['用户名或密码错误', 'Wrong username or password'],
  'auth.login_ok': ['登录成功', 'Logged in'],
  'auth.logout_ok': ['登出成功', 'Logged out'],
  'auth.token_valid': ['令牌有效', 'The token is valid'],
  'auth.apikey_valid': ['API密钥验证成功', 'The API key is valid'],
  'auth.current_password_wrong': ['当前密码错误', 'The current password is wrong'],
  'auth.current_password_required': ['请输入当前密码', 'The current password is required'],
  'auth.same_password': ['新密码不能与当前密码相同', 'The new password must differ from the current one'],
  'auth.username_taken': ['用户名已存在', 'That username is already taken'],
  'auth.nothing_to_change': ['未提供新密码或新用户名', 'Give a new password or a new username'],
  'auth.password_too_short': ['新密码至少需要 8 个字符', 'The new password needs at least 8 characters'],
  'auth.changed': ['信息更新成功，请重新登录', 'Account updated, please log in again'],
  'apikeys.listed': ['获取成功', 'Loaded'],
  'apikeys.created': ['API密钥创建成功', 'API key created'],
  'apikeys.updated': ['API密钥已更新', 'API key updated'],
  'apikeys.deleted': ['密钥已删除', 'API key deleted'],
  'apikeys.not_found': ['密钥不存在', 'API key not found'],
  'apikeys.name_taken': ['密钥名称已存在', 'An API key with that name already exists'],
  'apikeys.key_taken': ['密钥已存在', 'That key is already in use'],
  'apikeys.nothing_to_update': ['没有提供有效的更新字段', 'Nothing to update'],
  'validation.name_required': ['密钥名称不能为空', 'The name is required'],
  'validation.custom_key_invalid': [
    '密钥只能包含字母、数字、横杠和下划线',
    'The key may only contain letters, digits, hyphens and underscores',
  ],
  'validation.custom_key_too_short': [
    '自定义密钥至少需要 16 个字符',
    'A custom key needs at least 16 characters',
  ],
  'validation.custom_key_too_long': [
    '自定义密钥最多 128 个字符',
    'A custom key may have at most 128 characters',
  ],
  'validation.invalid_expiry': ['无效的过期时间', 'Invalid expiry time'],
  'validation.invalid_path': ['路径无效', 'Invalid path'],
  'validation.malformed_text': [
    '{field} 含有无效字符（NUL 或孤立的 Unicode 代理项）',
    '{field} holds a character that is not allowed (NUL or a lone Unicode surrogate)',
  ],
  'pastes.created': ['创建成功', 'Created'],
  'pastes.loaded': ['获取成功', 'Loaded'],
  'pastes.not_found': ['文本分享不存在或已过期', 'This text share does not exist or has expired'],
  'pastes.expired': ['文本分享已过期', 'This text share has expired'],
  'pastes.used_up': ['文本分享已超过最大查看次数', 'This text share has reached its maximum number of views'],
  'pastes.password_required': ['请提供密码', 'A password is required'],
  'pastes.wrong_password': ['密码错误', 'Wrong password'],
  'pastes.slug_taken': ['链接后缀已被占用，请尝试其他后缀', 'That link suffix is already taken, try another'],
  'pastes.slug_exhausted': ['无法生成唯一链接，请稍后再试', 'Could not generate a unique link, try again'],
  'pastes.content_too_large': ['内容过大（上限 {limit}）', 'The content is too large (limit {limit})'],
  'pastes.updated': ['文本分享已更新', 'Text share updated'],
  'pastes.deleted': ['分享已删除', 'Share deleted'],
  'pastes.batch_deleted': ['已删除 {count} 个分享', 'Deleted {count} shares'],
  'pastes.cleared': ['已清理 {count} 个过期分享', 'Removed {count} expired or used-up shares'],
  'pastes.not_found_or_forbidden': [
    '文本分享不存在或无权访问',
    'This text share does not exist or is not yours',
  ],
  'validation.ids_required': ['请提供有效的ID数组', 'Give a list of ids'],
  'validation.file_ids_required': ['请提供有效的文件ID数组', 'Give a list of file ids'],
  'validation.content_required': ['内容不能为空', 'The content must not be empty'],
  'validation.slug_invalid': [
    '链接后缀格式无效，只允许使用字母、数字、连字符(-)和下划线(_)',
    'The link suffix may only contain letters, digits, hyphens (-) and underscores (_)',
  ],
  'validation.slug_too_long': ['链接后缀最多 50 个字符', 'The link suffix may have at most 50 characters'],
  'validation.slug_reserved': [
    '该链接后缀为系统保留，请换一个',
    'That link suffix is reserved, choose another',
  ],
  'validation.max_views_invalid': [
    '可打开次数必须是 0 到 1000000000 之间的整数（不能为负数）',
    'Max views must be a whole number from 0 to 1000000000',
  ],
  'validation.remark_too_long': ['备注最多 500 个字符', 'The remark may have at most 500 characters'],
  'storage.not_found': ['指定的存储配置不存在', 'That storage configuration does not exist'],
  'storage.not_usable_by_key': [
    '没有权限使用此存储配置（API密钥只能使用公开的存储配置）',
    'API keys can only use storage configurations marked usable by keys',
  ],
  'storage.none_available': [
    '没有可用的存储配置，请先创建配置',
    'No storage configuration is available; create one first',
  ],
  'storage.listed': ['获取S3配置列表成功', 'Storage configurations loaded'],
  'storage.loaded': ['获取S3配置成功', 'Storage configuration loaded'],
  'storage.created': ['S3配置创建成功', 'Storage configuration created'],
  'storage.updated': ['S3配置已更新', 'Storage configuration updated'],
  'storage.deleted': ['S3配置删除成功', 'Storage configuration deleted'],
  'storage.default_set': ['默认S3配置设置成功', 'Default storage configuration set'],
  'storage.nothing_to_update': ['没有提供要更新的字段', 'Nothing to update'],
  'storage.in_use': [
    '有文件正在使用此配置（{count} 个），无法删除',
    'This configuration cannot be deleted because {count} files use it',
  ],
  'storage.in_use_uploads': [
    '无法删除此配置，因为有上传正在使用它',
    'This configuration cannot be deleted while uploads use it',
  ],
  'storage.default_delete': [
    '无法删除默认存储配置，请先将其他配置设为默认',
    'This is the default storage configuration; set another one as default first',
  ],
  'storage.secrets_unreadable': [
    '无法解密已保存的凭据（SECRET_KEY 可能已更改），请重新填写访问密钥ID和私有访问密钥',
    'The stored credentials cannot be decrypted (SECRET_KEY may have changed); enter the access key ID and secret again',
  ],
  'storage.test_ok': [
    'S3配置测试成功 (读写权限均可用，前端上传测试通过)',
    'Storage test passed (read and write work, browser upload works)',
  ],
  'storage.test_partial': [
    'S3配置测试部分成功 (未通过: {steps})',
    'Storage test partly passed (failed: {steps})',
  ],
  'storage.test_failed': ['S3配置测试失败 (未通过: {steps})', 'Storage test failed (failed: {steps})'],
  'storage.probe.list_ok': ['已列出根目录：{count} 个条目', 'Listed the root: {count} entries'],
  'storage.probe.list_failed': [
    '无法列出根目录，请检查地址、存储桶名称、区域和凭据',
    'Could not list the root; check the endpoint, bucket name, region and credentials',
  ],
  'storage.probe.skipped_unreachable': ['已跳过：无法连接到存储', 'Skipped: the storage cannot be reached'],
  'storage.probe.write_ok': [
    '已写入测试对象 {path}（{size} 字节）',
    'Wrote the test object {path} ({size} bytes)',
  ],
  'storage.probe.write_failed': [
    '无法写入测试对象 {path}，请检查凭据是否有写权限',
    'Could not write the test object {path}; check that the credentials may write',
  ],
  'storage.probe.write_size': [
    '测试对象已写入，但存储报告的大小为 {actual} 字节（应为 {expected} 字节）',
    'The test object was written but the storage reports {actual} bytes (expected {expected})',
  ],
  'storage.probe.skipped_no_write': [
    '已跳过：测试对象未能写入',
    'Skipped: the test object could not be written',
  ],
  'storage.probe.read_ok': [
    '读回的 {size} 字节与写入的一致',
    'Read back {size} bytes, identical to those written',
  ],
  'storage.probe.read_mismatch': [
    '读回的内容与写入的不一致',
    'What was read back differs from what was written',
  ],
  'storage.probe.read_failed': ['无法读回测试对象', 'Could not read the test object back'],
  'storage.probe.no_browser_upload': [
    '此存储不能生成浏览器直传链接',
    'This storage cannot make upload links for browsers',
  ],
  'storage.probe.cors_ok': [
    '预检通过：来源 {origin} 可以用 PUT 上传并发送 Content-Type 请求头',
    'Preflight passed: {origin} may upload with PUT and send a Content-Type header',
  ],
  'storage.probe.cors_failed': [
    '浏览器预检未通过（状态 {status}）：存储桶的 CORS 规则需允许来源 {origin}、方法 PUT 和请求头 Content-Type',
    'The browser preflight failed (status {status}): the bucket CORS rules must allow origin {origin}, method PUT and header Content-Type',
  ],
  'storage.probe.request_failed': [
    '请求未能发出或没有响应',
    'The request could not be sent or got no answer',
  ],
  'storage.probe.etag_ok': [
    '浏览器上传成功（状态 {status}），可以读取 ETag',
    'Browser upload worked (status {status}) and the ETag is readable',
  ],
  'storage.probe.etag_put_failed': [
    '浏览器上传失败（状态 {status}）',
    'The browser upload failed (status {status})',
  ],
  'storage.probe.etag_no_origin': [
    '上传的响应没有允许来源 {origin}（缺少 Access-Control-Allow-Origin），浏览器会拒绝该响应',
    'The upload answer does not allow origin {origin} (no Access-Control-Allow-Origin), so a browser rejects it',
  ],
  'storage.probe.etag_not_exposed': [
    '上传成功，但 CORS 规则没有在 Access-Control-Expose-Headers 中暴露 ETag，浏览器无法读取它（分片上传需要）',
    'The upload worked, but the CORS rules do not list ETag in Access-Control-Expose-Headers, so a browser cannot read it (multipart uploads need it)',
  ],
  'storage.probe.etag_missing': [
    '上传成功，但响应中没有 ETag',
    'The upload worked but the answer has no ETag',
  ],
  'storage.probe.etag_not_stored': [
    '上传的对象没有按预期保存',
    'The uploaded object was not stored as expected',
  ],
  'storage.probe.delete_ok': ['已删除测试对象', 'Deleted the test objects'],
  'storage.probe.delete_failed': [
    '无法删除测试对象 {path}，请手动删除',
    'Could not delete the test object {path}; delete it by hand',
  ],
  'storage.probe.nothing_to_delete': ['没有需要删除的测试对象', 'No test object to delete'],
  'storage.error.unavailable': [
    '无法连接存储，或存储不接受此配置（地址、存储桶）',
    'The storage cannot be reached or refuses this configuration (endpoint, bucket)',
  ],
  'storage.error.forbidden': ['存储拒绝了凭据或操作', 'The storage refused the credentials or the operation'],
  'storage.error.other': ['存储操作失败', 'The storage operation failed'],
  'storage.error.network': ['网络错误', 'Network error'],
  'validation.storage_name_required': ['配置名称不能为空', 'The name is required'],
  'validation.storage_name_too_long': ['配置名称最多 50 个字符', 'The name may have at most 50 characters'],
  'validation.provider_invalid': [
    '提供商类型无效，可选：Cloudflare R2、Backblaze B2、AWS S3、Other S3 Compatible、Local',
    'Unknown provider type; use Cloudflare R2, Backblaze B2, AWS S3, Other S3 Compatible or Local',
  ],
  'validation.driver_change': [
    '不能在本地存储和 S3 之间切换，请新建配置',
    'A configuration cannot switch between local disk and S3; create a new one',
  ],
  'validation.url_invalid': ['必须是 http 或 https 地址', 'Must be an http or https URL'],
  'validation.endpoint_required': ['此提供商需要填写端点地址', 'This provider needs its endpoint URL'],
  'validation.bucket_required': ['存储桶名称不能为空', 'The bucket name is required'],
  'validation.bucket_invalid': [
    '存储桶名称需为 3-63 个字母、数字、点、连字符或下划线，并以字母或数字开头和结尾',
    'A bucket name has 3 to 63 letters, digits, dots, hyphens or underscores, and starts and ends with a letter or digit',
  ],
  'validation.region_invalid': ['区域名称无效', 'Invalid region name'],
  'validation.region_required': [
    'Backblaze B2 需要填写区域（如 us-west-004）或端点地址',
    'Backblaze B2 needs its region (e.g. us-west-004) or its endpoint URL',
  ],
  'validation.access_key_required': ['访问密钥ID不能为空', 'The access key ID is required'],
  'validation.secret_required': ['私有访问密钥不能为空', 'The secret access key is required'],
  'validation.credential_too_long': ['凭据过长', 'The credential is too long'],
  'validation.folder_invalid': ['默认文件夹无效（不能包含 ..）', 'Invalid default folder (no .. allowed)'],
  'validation.root_path_required': ['存储目录不能为空', 'The storage folder is required'],
  'validation.root_path_invalid': [
    '存储目录必须是服务器上的绝对路径，且不能包含 . 或 ..',
    'The storage folder must be an absolute path on the server, without . or .. segments',
  ],
  'validation.root_path_unusable': [
    '无法在此路径创建或写入目录',
    'The server cannot create or write to a folder at this path',
  ],
  'validation.signature_expires_invalid': [
    '签名有效期必须是 60 到 604800 之间的整数秒',
    'The signature lifetime must be a whole number of seconds from 60 to 604800',
  ],
  'validation.quota_invalid': [
    '存储容量必须是正整数字节数，或留空表示不限',
    'The storage quota must be a positive whole number of bytes, or empty for none',
  ],
  'validation.flag_invalid': ['必须是 true/false 或 1/0', 'Must be true/false or 1/0'],
  'files.loaded': ['获取文件成功', 'File share loaded'],
  'files.listed': ['获取文件列表成功', 'File shares loaded'],
  'files.not_found': ['文件不存在', 'This file share does not exist'],
  'files.not_found_or_forbidden': ['文件不存在或无权访问', 'This file share does not exist or is not yours'],
  'files.expired': ['文件已过期', 'This file share has expired'],
  'files.used_up': ['文件已达到最大查看次数', 'This file share has reached its maximum number of views'],
  'files.password_missing': ['密码是必需的', 'A password is required'],
  'files.password_required': ['需要密码访问此文件', 'This file needs a password'],
  'files.wrong_password_verify': ['密码不正确', 'Wrong password'],
  'files.wrong_password': ['密码错误', 'Wrong password'],
  'files.invalid_token': ['访问链接无效', 'This access link is invalid'],
  'files.token_expired': [
    '访问链接已过期，请重新打开分享并输入密码',
    'This access link has expired; open the share and enter the password again',
  ],
  'files.verified': ['密码验证成功', 'Password accepted'],
  'files.no_password_needed': ['此文件不需要密码', 'This file needs no password'],
  'files.object_missing': ['文件存储信息不完整', 'The file is missing from its storage'],
  'files.storage_unavailable': ['存储暂时不可用，请稍后再试', 'The storage is unavailable, try again later'],
  'files.range_not_satisfiable': ['请求的范围无效', 'The requested range cannot be satisfied'],
  'files.updated': ['文件元数据更新成功', 'File share updated'],
  'files.slug_taken': ['此链接后缀已被其他文件使用', 'That link suffix is already used by another file'],
  'files.slug_exhausted': ['无法生成唯一链接，请稍后再试', 'Could not generate a unique link, try again'],
  'files.deleted': ['文件删除成功', 'File share deleted'],
  'files.deleted_object_failed': [
    '文件记录已删除，但删除存储中的文件失败',
    'The file share was deleted, but its file could not be deleted from storage',
  ],
  'files.batch_deleted': ['已删除 {count} 个文件', 'Deleted {count} file shares'],
  'files.batch_deleted_object_failed': [
    '已删除 {count} 个文件，其中 {failed} 个存储中的文件删除失败',
    'Deleted {count} file shares; {failed} of their files could not be deleted from storage',
  ],
  'files.office_preview': ['获取Office预览URL成功', 'Office preview link ready'],
  'files.office_preview_disabled': ['Office 预览未启用', 'Office preview is turned off on this server'],
  'files.not_office': ['不是Office文件类型', 'This file is not a document the Office viewer can show'],
  'fs.path_required': ['请提供路径', 'A path is required'],
  'fs.path_invalid': [
    '路径无效（不能包含 . 或 .. 段、控制字符或全角斜杠）',
    'Invalid path (no . or .. segments, control characters or full-width slashes)',
  ],
  'fs.path_forbidden': ['没有权限访问此路径', 'This path is outside what your key may reach'],
  'fs.root_forbidden': ['无法操作根目录', 'The root cannot be changed'],
  'fs.mount_root_forbidden': ['无法操作挂载点根目录', "A mount's root folder cannot be changed"],
  'fs.mount_not_found': ['挂载点不存在', 'No mount holds this path'],
  'fs.storage_not_found': ['存储配置不存在', "The mount's storage configuration no longer exists"],
  'fs.not_found': ['文件或目录不存在', 'No file or folder is there'],
  'fs.already_exists': ['目标路径已存在', 'Something is already there'],
  'fs.target_exists': ['目标路径已存在', 'The target already exists'],
  'fs.not_a_directory': ['路径中有文件而不是目录', 'A file is in the way where a folder should be'],
  'fs.is_a_directory': ['该路径是目录', 'That path is a folder'],
  'fs.precondition_failed': [
    '操作无法完成（目录不为空或文件已改变）',
    'The operation cannot complete (a folder is not empty or a file changed)',
  ],
  'fs.storage_forbidden': ['没有权限访问该文件或目录', 'The storage refused access to this file or folder'],
  'fs.range_invalid': ['请求的范围无效', 'The requested range cannot be satisfied'],
  'fs.rename_across_mounts': [
    '不支持跨挂载点重命名，请使用复制和删除操作',
    'Renaming across mounts is not possible; copy, then delete',
  ],
  'fs.same_path': ['源路径和目标路径不能相同', 'The source and the target are the same'],
  // The fs routes (API-REFERENCE §6.11; the reference's Chinese texts where it has them).
  'fs.listed': ['获取目录列表成功', 'Folder listed'],
  'fs.got': ['获取文件信息成功', 'File information loaded'],
  'fs.name_invalid': [
    '文件名无效（不能为空、不能是 . 或 ..，不能包含 / 或控制字符）',
    'Invalid file name (not empty, not . or .., no / or control characters)',
  ],
  'fs.dir_path_required': ['请提供目录路径', 'A folder path is required'],
  'fs.dir_exists': ['目录已存在', 'The folder already exists'],
  'fs.dir_created': ['目录创建成功', 'Folder created'],
  'fs.file_and_path_required': ['请提供文件和路径', 'A file and a folder path are required'],
  'fs.uploaded': ['文件上传成功', 'File uploaded'],
  'fs.use_multipart': ['需要使用分片上传', 'Upload the file in parts'],
  'fs.use_multipart_hint': ['请使用分片上传API上传此文件', 'Use the multipart API to upload this file'],
  'fs.multipart_path_required': ['路径不能为空', 'A path is required'],
  'fs.multipart_params': ['缺少必要参数或参数无效', 'Required parameters are missing or invalid'],
  'fs.part_length_required': ['分片需要 Content-Length 请求头', 'A part needs a Content-Length header'],
  'fs.part_empty': ['分片数据不能为空', 'A part cannot be empty'],
  'fs.parts_mismatch': [
    '分片列表与已上传的分片不一致',
    'The parts listed do not match the parts the storage received',
  ],
  'fs.parts_rejected': [
    '存储拒绝了这些分片（除最后一个外每个分片至少 5 MiB）',
    'The storage refused the parts (every part but the last must be at least 5 MiB)',
  ],
  'fs.upload_not_found': [
    '上传不存在，或已完成或已中止',
    'No such upload: it is unknown, completed or aborted',
  ],
  'fs.multipart_aborted': ['已中止分片上传', 'Upload aborted'],
  'fs.parts_listed': ['获取已上传分片成功', 'Uploaded parts listed'],
  'fs.presign_params': ['请提供上传路径和文件名', 'A folder path and a file name are required'],
  'fs.presign_size_required': ['请提供文件大小 (fileSize)', 'The file size (fileSize) is required'],
  'fs.presign_unsupported': ['当前路径不支持预签名URL上传', 'This storage cannot take presigned uploads'],
  'fs.presigned': ['获取预签名URL成功', 'Upload URL ready'],
  'fs.commit_params': ['请提供完整的上传信息', 'The upload information is incomplete'],
  'fs.upload_not_received': [
    '存储中没有收到文件内容，请先上传',
    'The storage has not received the file yet: upload it first',
  ],
  'fs.removed': ['删除成功', 'Deleted'],
  'fs.paths_required': ['请提供有效的路径数组', 'A list of paths is required'],
  'fs.remove_forbidden': ['没有权限删除路径: {path}', 'Your key may not delete {path}'],
  'fs.batch_removed': ['批量删除完成，成功: {success}，失败: {failed}', 'Deleted {success}, failed {failed}'],
  'fs.rename_params': ['请提供源路径和目标路径', 'A source and a target path are required'],
  'fs.rename_kind_mismatch': [
    '源路径和目标路径类型必须一致（文件或目录）',
    'The source and the target must both be files or both be folders',
  ],
  'fs.renamed': ['重命名成功', 'Renamed'],
  'fs.update_params': ['请提供文件路径和内容', 'A file path and content are required'],
  'fs.update_directory': [
    '不能更新目录，请提供有效的文件路径',
    'A folder cannot be written: give a file path',
  ],
  'fs.update_too_large': ['文件内容过大，超过最大限制(10MB)', 'The content is larger than the 10 MiB limit'],
  'fs.created_file': ['文件创建成功', 'File created'],
  'fs.updated_file': ['文件更新成功', 'File updated'],
  'fs.link_directory': ['无法为目录生成预签名URL', 'A folder has no direct link'],
  'fs.link_unsupported': ['当前路径不支持生成预签名URL', 'This storage cannot make direct links'],
  'fs.link_ready': ['获取文件直链成功', 'Direct link ready'],
  'fs.cache_stats': ['获取系统监控信息成功', 'Cache statistics loaded'],
  'fs.cache_cleared': ['缓存清理成功，共清理 {count} 项', 'Cache cleared: {count} listings'],
  // Copy and move tasks (the fs-tasks module; batch-copy texts as the reference words them).
  'fs.copy_items_required': ['请提供有效的复制项数组', 'A list of items to copy is required'],
  'fs.copy_too_many_items': ['复制项过多（最多 1000 项）', 'Too many items (at most 1,000)'],
  'fs.copy_paths_required': ['源路径或目标路径不能为空', 'Every item needs a source and a target path'],
  'fs.copy_mount_root': ['无法复制挂载点根目录', "A mount's root folder cannot be copied or moved"],
  'fs.copy_into_itself': ['不能把目录复制到它自己里面', 'A folder cannot be copied into itself'],
  'fs.task_created': ['任务已创建', 'Task started'],
  'fs.task_loaded': ['获取任务成功', 'Task loaded'],
  'fs.tasks_listed': ['获取任务列表成功', 'Tasks loaded'],
  'fs.task_cancelled': ['任务已取消', 'Task cancelled'],
  'fs.task_deleted': ['任务记录已删除', 'Task record deleted'],
  'fs.task_not_found': ['任务不存在', 'No such task'],
  'fs.task_elsewhere': [
    '任务正在另一个服务器进程中运行，无法在此取消',
    'The task runs in another server process and cannot be cancelled here',
  ],
  'fs.task_interrupted': [
    '服务器在任务完成前重启，任务未完成',
    'The server restarted before the task finished; it did not complete',
  ],
  'fs.task_items_failed': ['部分项目复制失败', 'Some items could not be copied'],
  'fs.batch_copy_done': [
    '批量复制完成，成功: {success}，跳过: {skipped}，失败: {failed}',
    'Copy finished: {success} copied, {skipped} skipped, {failed} failed',
  ],
  'fs.batch_copy_partial': [
    '批量复制部分完成，成功: {success}，跳过: {skipped}，失败: {failed}',
    'Copy partly finished: {success} copied, {skipped} skipped, {failed} failed',
  ],
  'fs.batch_copy_failed': [
    '批量复制失败，成功: {success}，跳过: {skipped}，失败: {failed}',
    'Copy failed: {success} copied, {skipped} skipped, {failed} failed',
  ],
  'fs.copy_commit_params': [
    '请提供有效的目标挂载点ID和文件列表',
    'A target mount id and a list of files are required',
  ],
  'fs.copy_commit_done': [
    '批量复制完成，成功: {success}，失败: {failed}',
    'Copy confirmed: {success} present, {failed} missing',
  ],
  'fs.copy_commit_partial': [
    '批量复制部分完成，成功: {success}，失败: {failed}',
    'Copy partly confirmed: {success} present, {failed} missing',
  ],
  'fs.copy_commit_failed': [
    '批量复制失败，成功: {success}，失败: {failed}',
    'Copy not confirmed: {success} present, {failed} missing',
  ],
  'fs.copy_target_missing': ['目标路径或S3路径不能为空', 'A target path is required'],
  // Mounts (API-REFERENCE §6.10; the reference's Chinese texts where it has them).
  'mounts.listed': ['获取挂载点列表成功', 'Mounts loaded'],
  'mounts.loaded': ['获取挂载点成功', 'Mount loaded'],
  'mounts.created': ['挂载点创建成功', 'Mount created'],
  'mounts.updated': ['挂载点已更新', 'Mount updated'],
  'mounts.deleted': ['挂载点删除成功', 'Mount deleted'],
  'mounts.not_found': ['挂载点不存在', 'Mount not found'],
  'mounts.not_found_update': ['挂载点不存在或无权限修改', 'Mount not found'],
  'mounts.not_found_delete': ['挂载点不存在或无权限删除', 'Mount not found'],
  'mounts.forbidden': ['没有权限访问此挂载点', 'This mount is outside what your key may reach'],
  'mounts.path_taken': ['挂载路径已被使用', 'Another mount already uses this path'],
  'mounts.config_not_found': ['指定的S3配置不存在', 'The chosen storage configuration does not exist'],
  'validation.mount_name_required': ['缺少必填字段: name', 'The mount name is required'],
  'validation.mount_name_too_long': [
    '挂载点名称长度必须在1-50个字符之间',
    'The mount name may have at most 50 characters',
  ],
  'validation.mount_path_required': ['挂载路径不能为空', 'The mount path is required'],
  'validation.mount_path_leading_slash': [
    '挂载路径必须以斜杠(/)开头',
    'The mount path must start with a slash (/)',
  ],
  'validation.mount_path_trailing_slash': [
    '挂载路径不应以斜杠结尾',
    'The mount path must not end with a slash',
  ],
  'validation.mount_path_double_slash': [
    '挂载路径不能包含连续的斜杠',
    'The mount path must not contain consecutive slashes',
  ],
  'validation.mount_path_chars': [
    '挂载路径只能包含字母、数字、中文、下划线、连字符和斜杠，不允许其他特殊字符',
    'The mount path may only contain letters, digits, Chinese characters, underscores, hyphens and slashes',
  ],
  'validation.mount_path_too_long': [
    '挂载路径不能超过100个字符',
    'The mount path may have at most 100 characters',
  ],
  'validation.mount_path_system_reserved': [
    '不允许使用系统保留路径: {prefix}',
    'The mount path may not use the system path {prefix}',
  ],
  'validation.mount_path_app_reserved': [
    '不允许使用应用保留路径: {prefix}',
    'The mount path may not use the app path {prefix}',
  ],
  'validation.storage_config_required': [
    '缺少必填字段: storage_config_id',
    'Choose the storage configuration',
  ],
  'validation.storage_type_invalid': [
    '存储类型只能是 S3 或 Local（实际类型由存储配置决定）',
    'The storage type must be S3 or Local (the storage configuration decides what it really is)',
  ],
  'validation.cache_ttl_invalid': [
    '缓存时间必须是 0 到 86400 之间的整数（秒）',
    'The cache time must be a whole number of seconds from 0 to 86400',
  ],
  'validation.sort_order_invalid': [
    '排序顺序必须是 -1000000 到 1000000 之间的整数',
    'The sort order must be a whole number from -1000000 to 1000000',
  ],
  'storage.in_use_mounts': [
    '有挂载点正在使用此配置，无法删除：{mounts}',
    'This configuration cannot be deleted because mounts use it: {mounts}',
  ],
  'settings.loaded': ['获取系统设置成功', 'Settings loaded'],
  'settings.updated': ['系统设置更新成功', 'Settings saved'],
  'settings.nothing_to_update': ['没有提供要更新的设置', 'Nothing to update'],
  'settings.max_upload_size': ['获取最大上传大小成功', 'Largest upload size'],
  'validation.max_upload_size_invalid': [
    '最大上传大小必须大于 0',
    'The largest upload size must be greater than 0',
  ],
  'validation.max_upload_size_range': [
    '最大上传大小必须在 1 KB 到 1 TB 之间',
    'The largest upload size must be between 1 KB and 1 TB',
  ],
  'validation.size_unit_invalid': ['单位必须是 KB、MB 或 GB', 'The unit must be KB, MB or GB'],
  'validation.webdav_upload_mode_invalid': [
    'WebDAV上传模式无效，有效值为: auto, proxy, multipart, direct',
    'Invalid WebDAV upload mode; use auto, proxy, multipart or direct',
  ],
  'validation.url_allowlist_entry_invalid': [
    'URL 允许列表中的条目无效：{entry}（应为主机名、主机名:端口、IP 或 CIDR）',
    'Invalid URL allowlist entry: {entry} (use a host, host:port, IP address or CIDR range)',
  ],
  'validation.url_allowlist_too_long': ['URL 允许列表过长', 'The URL allowlist is too long'],
  'validation.url_allowlist_invalid': ['URL 允许列表必须是文本', 'The URL allowlist must be text'],
  'validation.office_preview_enabled_invalid': [
    'office_preview_enabled 必须是布尔值',
    'office_preview_enabled must be true or false',
  ],
  'validation.url_required': ['缺少URL参数', 'The url parameter is missing'],
  'url.info_ok': ['URL验证成功', 'URL checked'],
  'url.invalid': ['无效的URL格式', 'Invalid URL'],
  'url.credentials': ['URL 中不能包含用户名或密码', 'URLs with a user name or password are not supported'],
  'url.protocol': ['仅支持HTTP/HTTPS协议的URL', 'Only HTTP and HTTPS URLs are supported'],
  'url.blocked': ['不允许访问此地址', 'This address is not allowed'],
  'url.too_large': ['文件过大（上限 {limit}）', 'The file is too large (limit {limit})'],
  'url.timeout': ['访问此URL超时', 'The URL did not answer in time'],
  'url.dns': ['无法解析此URL的主机名', 'The host name of this URL could not be resolved'],
  'url.unreachable': ['无法访问此URL', 'This URL could not be reached'],
  'url.too_many_redirects': ['此URL的重定向次数过多', 'This URL redirects too many times'],
  'url.upstream_status': [
    '源服务器返回错误状态码: {status}',
    'The source server answered with status {status}',
  ],
  'uploads.uploaded': ['文件上传成功', 'File uploaded'],
  'uploads.presigned': ['获取预签名URL成功', 'Upload URL ready'],
  'uploads.committed': ['文件提交成功', 'File saved'],
  'uploads.multipart_started': ['分片上传初始化成功', 'Multipart upload started'],
  'uploads.part_urls': ['获取分片上传URL成功', 'Part upload URLs ready'],
  'uploads.status': ['获取上传状态成功', 'Upload status loaded'],
  'uploads.part_recorded': ['分片已记录', 'Part recorded'],
  'uploads.multipart_completed': ['分片上传已完成', 'Multipart upload completed'],
  'uploads.multipart_aborted': ['分片上传已终止', 'Multipart upload aborted'],
  'uploads.url_ready': ['URL上传准备就绪', 'URL upload ready'],
  'uploads.url_cancelled': ['URL上传已成功取消', 'URL upload cancelled'],
  'uploads.too_large': [
    '文件大小超过系统限制，最大允许 {limit}，当前文件 {size}',
    'The file is larger than the upload limit of {limit} (this file: {size})',
  ],
  'uploads.too_large_for_presign': [
    '单次上传最大 {limit}，更大的文件请使用分片上传',
    'One request takes at most {limit}; send larger files in parts (multipart)',
  ],
  'uploads.too_large_stream': [
    '文件大小超过系统限制，最大允许 {limit}',
    'The file is larger than the upload limit of {limit}',
  ],
  'uploads.storage_full': [
    '存储空间不足。文件大小({size})超过剩余空间({free})。存储桶总容量限制为{total}。',
    'Not enough storage space: the file ({size}) is larger than the space left ({free}) of {total}',
  ],
  'uploads.not_multipart_form': [
    '请求必须是 multipart/form-data 格式',
    'The request must be multipart/form-data',
  ],
  'uploads.invalid_form': ['表单数据无效或不完整', 'The form data is malformed or incomplete'],
  'uploads.file_required': ['请提供要上传的文件（字段 file）', 'Send the file in the form field "file"'],
  'uploads.one_file': ['每次只能上传一个文件', 'Send one file per request'],
  'uploads.field_after_file': [
    '字段 {field} 必须在文件之前发送',
    'The form field {field} must come before the file',
  ],
  'uploads.file_not_found': ['文件不存在或已被删除', 'The file does not exist or was deleted'],
  'uploads.not_yours': ['您无权操作此文件的上传', 'This upload belongs to someone else'],
  'uploads.override_forbidden': [
    '您无权覆盖其他用户创建的文件',
    'The share with that link was created by someone else and cannot be replaced',
  ],
  'uploads.not_pending': ['此文件的上传已完成或已取消', 'This upload is already finished or cancelled'],
  'uploads.object_missing': [
    '存储中找不到上传的文件，文件记录已被删除，请重新上传',
    'The uploaded file is not in storage; its record was deleted, upload it again',
  ],
  'uploads.size_mismatch': [
    '上传的文件大小({actual})与声明的大小({declared})不一致，文件已被删除',
    'The uploaded file has {actual} bytes instead of the declared {declared}; it was deleted',
  ],
  'uploads.session_not_found': [
    '分片上传不存在或已过期',
    'This multipart upload does not exist or has expired',
  ],
  'uploads.part_not_found': [
    '存储中找不到分片 {part}（或 ETag 不一致）',
    'Part {part} is not in storage with that ETag',
  ],
  'uploads.part_number_invalid': [
    '分片编号 {part} 无效（共 {count} 个分片）',
    'Part number {part} is invalid (the upload has {count} parts)',
  ],
  'uploads.parts_missing': ['缺少分片: {parts}', 'Parts missing: {parts}'],
  'uploads.parts_rejected': [
    '存储拒绝合并分片，请检查分片列表',
    'The storage refused to join the parts; check the part list',
  ],
  'uploads.path_forbidden': [
    '没有权限上传到此路径（限于 {base}）',
    'This API key may only upload below {base}',
  ],
  'uploads.path_invalid': ['上传路径无效', 'Invalid upload path'],
  'uploads.filename_invalid': ['文件名无效', 'Invalid file name'],
  'uploads.slug_taken': [
    '链接后缀已被占用，请使用其他链接后缀',
    'That link suffix is already taken, try another',
  ],
  'uploads.slug_exhausted': [
    '无法生成唯一链接后缀，请稍后再试',
    'Could not generate a unique link, try again',
  ],
  'uploads.size_unknown': [
    '无法确定文件大小，请在 metadata.size 中提供',
    'The file size is unknown; give it as metadata.size',
  ],
  'uploads.storage_conflict': [
    '存储中的目标位置已被占用',
    'The storage already has something at the target location',
  ],
  'validation.filename_required': ['必须提供 filename', 'filename is required'],
  'validation.filename_too_long': ['文件名过长', 'The file name is too long'],
  'validation.size_invalid': ['文件大小必须是非负整数字节数', 'size must be a whole number of bytes'],
  'validation.expires_in_invalid': [
    '过期时间必须是不小于 0 的小时数',
    'expires_in must be a number of hours of at least 0',
  ],
  'validation.use_proxy_invalid': ['use_proxy 必须是 0 或 1', 'use_proxy must be 0 or 1'],
  'validation.original_filename_invalid': [
    'original_filename 必须是 true 或 false',
    'original_filename must be true or false',
  ],
  'validation.override_invalid': ['override 必须是 true 或 false', 'override must be true or false'],
  'validation.password_too_long': ['密码最多 200 个字符', 'The password may have at most 200 characters'],
  'validation.file_id_required': ['缺少文件ID参数', 'file_id is missing'],
  'validation.upload_id_required': ['缺少上传ID参数', 'upload_id is missing'],
  'validation.part_number_invalid': ['分片编号无效', 'Invalid part number'],
  'validation.parts_invalid': ['无效的分片信息', 'Invalid part list'],
  'system.health_ok': ['服务正常', 'Healthy'],
  'system.health_db_down': ['数据库不可用', 'The database is unavailable'],
  'system.version': ['获取版本信息成功', 'Version information'],
  'dashboard.stats': ['获取仪表盘统计数据成功', 'Dashboard figures loaded'],
} as const satisfies Record<string, readonly [string, string]>;

export type MessageKey = keyof typeof catalogue;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogue, key);
}

export function translate(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  const template = catalogue[key][lang === 'zh' ? 0 : 1];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

/** The `X-Cubby-Lang` request header (LANG_HEADER): English when it starts with `en` (any case). */
export function pickLang(header: string | undefined): Lang {
  return header?.trim().toLowerCase().startsWith('en') ? 'en' : 'zh';
}
