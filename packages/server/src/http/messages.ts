/**
 * Every message the API sends, in Chinese (the reference product's language, whose substrings some
 * clients match on) and English. The request's Accept-Language picks one; Chinese is the default.
 */

export type Lang = 'zh' | 'en';

const catalogue = {
  'common.ok': ['成功', 'OK'],
  'common.not_found_route': ['未找到请求的资源', 'The requested resource was not found'],
  'common.internal': ['服务器内部错误', 'Internal server error'],
  'common.invalid_json': ['请求体不是有效的 JSON', 'The request body is not valid JSON'],
  'common.body_too_large': ['请求体过大（上限 {limit}）', 'The request body is too large (limit {limit})'],
  'common.rate_limited': [
    '尝试次数过多，请 {seconds} 秒后再试',
    'Too many attempts, try again in {seconds} seconds',
  ],
  'common.validation': ['请求参数无效：{field}', 'Invalid input: {field}'],
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
  'pastes.ids_required': ['请提供有效的ID数组', 'Give a list of ids'],
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
  'validation.max_views_invalid': ['可打开次数不能为负数', 'Max views must be a whole number of at least 0'],
  'validation.remark_too_long': ['备注最多 500 个字符', 'The remark may have at most 500 characters'],
  'storage.not_found': ['指定的存储配置不存在', 'That storage configuration does not exist'],
  'storage.not_usable_by_key': [
    'API密钥用户只能使用公开的存储配置',
    'API keys can only use storage configurations marked usable by keys',
  ],
  'storage.none_available': [
    '没有可用的存储配置，请先创建配置',
    'No storage configuration is available; create one first',
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
  'system.health_ok': ['服务正常', 'Healthy'],
  'system.health_db_down': ['数据库不可用', 'The database is unavailable'],
  'system.version': ['获取版本信息成功', 'Version information'],
} as const satisfies Record<string, readonly [string, string]>;

export type MessageKey = keyof typeof catalogue;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogue, key);
}

export function translate(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  const template = catalogue[key][lang === 'zh' ? 0 : 1];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

/** Chinese unless the first language the client prefers is English. */
export function pickLang(acceptLanguage: string | undefined): Lang {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh';
}
